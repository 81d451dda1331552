import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { Agent, fetch as undiciFetch } from "undici";
import type { FetchLike } from "./fetch-text";
import { checkServiceBaseUrl, isLoopbackAddress, literalAddress, refusedAddress, type ServiceNetworkPolicy } from "./service-address";

/** The code of the error a refused address fails with (the connection check words it for the merchant). */
export const ADDRESS_REFUSED = "SERVICE_ADDRESS_REFUSED";

export function addressRefusedError(): Error {
  return Object.assign(new Error("the service's address is not a public internet address"), { code: ADDRESS_REFUSED });
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;
export type Resolve = typeof dnsLookup;

/**
 * A DNS lookup that refuses a host as soon as one of its addresses is not
 * accepted. The socket connects to exactly the addresses checked here, so a
 * name that resolved to a public address once and to a private one now (DNS
 * rebinding) cannot get through.
 */
export function checkedLookup(accept: (address: string) => boolean, resolve: Resolve = dnsLookup) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || !addresses.every((a) => accept(a.address))) return callback(addressRefusedError(), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * What a test of the https path hands in to reach a service on this machine;
 * the app never passes one. `trust`: the test's own certificate authority
 * (PEM), in place of the system's. `decide`: the address decision for this
 * connection, in place of the guard's (which still refuses loopback).
 */
export interface HttpsTestSeam {
  trust: string;
  decide(address: string): boolean;
}

function agentsFor(policy: ServiceNetworkPolicy, resolve: Resolve, testSeam?: HttpsTestSeam) {
  const agent = (accept: (address: string) => boolean, ca?: string) =>
    new Agent({ connect: { lookup: checkedLookup(accept, resolve) as never, ...(ca ? { ca } : {}) } });
  return {
    "https:": agent(testSeam?.decide ?? ((address) => refusedAddress(address, policy) === null), testSeam?.trust),
    // Plain http only ever reaches this machine, and only in development.
    "http:": agent((address) => policy.allowLoopback && isLoopbackAddress(address)),
  };
}

const shared = new Map<boolean, ReturnType<typeof agentsFor>>();

/**
 * fetch for calls to the referral service: the URL's scheme and host are
 * checked before connecting, every address DNS gives is checked as the
 * socket connects, and redirects are never followed. `resolve` replaces DNS
 * in tests, as `testSeam` does the certificate authority and the address decision.
 */
export function createGuardedFetch(policy: ServiceNetworkPolicy, resolve?: Resolve, testSeam?: HttpsTestSeam): FetchLike {
  let agents = resolve || testSeam ? agentsFor(policy, resolve ?? dnsLookup, testSeam) : shared.get(policy.allowLoopback);
  if (!agents) {
    agents = agentsFor(policy, dnsLookup);
    shared.set(policy.allowLoopback, agents);
  }
  const byScheme = agents;
  return async (input, init) => {
    const url = new URL(input);
    const check = checkServiceBaseUrl(url.origin, policy);
    const literal = literalAddress(url.hostname);
    if (!check.ok || (literal && refusedAddress(literal, policy))) throw addressRefusedError();
    const dispatcher = url.protocol === "http:" ? byScheme["http:"] : byScheme["https:"];
    const response = await undiciFetch(input, { ...(init as object), redirect: "manual", dispatcher } as never);
    return response as unknown as Response;
  };
}
