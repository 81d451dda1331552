import { BlockList, isIP } from "node:net";

/**
 * Which addresses the app may call the referral service at. Production
 * allows public https addresses only; `allowLoopback` (the development
 * setting ALLOW_LOOPBACK_SERVICE, set by tests, the demo and the sandbox
 * scripts) also allows 127.0.0.0/8 and ::1, over http too.
 */
export interface ServiceNetworkPolicy {
  allowLoopback: boolean;
}

export const STRICT_NETWORK: ServiceNetworkPolicy = { allowLoopback: false };

export type AddressProblem =
  | "not_a_url"
  | "scheme"
  | "credentials"
  | "query_or_fragment"
  | "private_address"
  | "loopback";

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

// Addresses that are not the public internet: this host, private networks,
// link-local (cloud metadata at 169.254.169.254), CGNAT, unique-local
// (metadata at fd00:ec2::254), multicast and reserved ranges.
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NOT_PUBLIC.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, bits, "ipv6");
}

/** Host names that lead to a cloud's metadata service or to this machine whatever DNS says. */
const REFUSED_NAMES = /^(metadata|metadata\.google\.internal|instance-data|instance-data\.ec2\.internal)\.?$/i;

function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = dotted[1].split(".").map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return v4(g[6], g[7]);
  if (zeros(6) && (g[6] !== 0 || g[7] > 1)) return v4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6], g[7]);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  return null;
}

/**
 * Why the app must not connect to this IP address, or null when it may.
 * This is the filter every connection to the service goes through.
 */
export function refusedAddress(address: string, policy: ServiceNetworkPolicy): "loopback" | "private_address" | null {
  const family = isIP(address);
  if (family === 0) return "private_address";
  const type = family === 4 ? "ipv4" : "ipv6";
  if (type === "ipv6") {
    const inner = embeddedIpv4(address);
    if (inner) return refusedAddress(inner, policy);
  }
  if (LOOPBACK.check(address, type)) return policy.allowLoopback ? null : "loopback";
  return NOT_PUBLIC.check(address, type) ? "private_address" : null;
}

export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The host of a URL as an IP address, when it is one (brackets of IPv6 removed). */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return isIP(bare) ? bare : null;
}

/**
 * Checks what can be checked before any DNS lookup: the scheme, user info,
 * query and fragment, literal addresses and refused host names. The address
 * DNS gives is checked again on every connection (guarded-fetch.ts).
 */
export function checkServiceBaseUrl(text: string, policy: ServiceNetworkPolicy): { ok: true; url: URL } | { ok: false; problem: AddressProblem } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: "not_a_url" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, problem: "scheme" };
  if (url.username || url.password) return { ok: false, problem: "credentials" };
  if (url.search || url.hash || /[?#]/.test(text)) return { ok: false, problem: "query_or_fragment" };
  const literal = literalAddress(url.hostname);
  const loopback = literal ? isLoopbackAddress(literal) : /^(.*\.)?localhost\.?$/i.test(url.hostname);
  if (loopback) return policy.allowLoopback ? { ok: true, url } : { ok: false, problem: "loopback" };
  // Plain http is for a service on this machine in development; the connection checks the name leads there.
  if (url.protocol !== "https:" && !(policy.allowLoopback && !literal)) return { ok: false, problem: "scheme" };
  if (literal && refusedAddress(literal, policy)) return { ok: false, problem: "private_address" };
  if (!literal && REFUSED_NAMES.test(url.hostname)) return { ok: false, problem: "private_address" };
  return { ok: true, url };
}
