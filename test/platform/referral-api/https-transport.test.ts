// The transport production uses, end to end: https, the strict address guard
// (no development setting), DNS checked as the socket connects, against the
// sandbox served over TLS on this machine with a certificate made for the
// test. Only two things are handed in, through the seam the app never
// passes: the test's certificate authority, and the address decision for
// loopback, which the guard itself refuses.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { LookupAddress } from "node:dns";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADDRESS_REFUSED,
  createGuardedFetch,
  createReferralClient,
  isReferralApiError,
  refusedAddress,
  STRICT_NETWORK,
  type HttpsTestSeam,
} from "../../../app/platform/referral-api";
import { startSandbox, type SandboxHandle } from "../../../sandbox/server";

/** The service's name, as a merchant would enter it; this test's DNS answers it with loopback. */
const HOST = "referral-service.example";

/** A self-signed certificate for HOST, made with openssl for this run. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "rb-tls-"));
  try {
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-subj", `/CN=${HOST}`, "-addext", `subjectAltName=DNS:${HOST}`,
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
    ], { stdio: "pipe" });
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const toLoopback = (_host: string, _options: unknown, callback: (error: Error | null, addresses: LookupAddress[]) => void) =>
  callback(null, [{ address: "127.0.0.1", family: 4 }]);

let tls: { key: string; cert: string };
let sandbox: SandboxHandle;
let baseUrl: string;

beforeAll(async () => {
  tls = selfSignedCertificate();
  sandbox = await startSandbox({ port: 0, quiet: true, tls });
  baseUrl = `https://${HOST}:${sandbox.port}`;
});
afterAll(() => sandbox?.close());

function client(testSeam?: HttpsTestSeam) {
  return createReferralClient({
    baseUrl,
    username: sandbox.username,
    token: sandbox.token,
    fetch: createGuardedFetch(STRICT_NETWORK, toLoopback as never, testSeam),
    timeoutMs: 10_000,
  });
}

async function failure(call: Promise<unknown>): Promise<{ kind: string; code?: string }> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isReferralApiError(error)) throw new Error(`Expected a ReferralApiError, got ${String(error)}`);
  return { kind: error.kind, code: (error.cause as { code?: string } | undefined)?.code };
}

describe("the https transport, as production sends", () => {
  it("makes a call over TLS to the service, the certificate checked, once the address decision is handed in", async () => {
    // The guard stays as it is: it refuses this machine's address.
    expect(sandbox.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:/);
    expect(refusedAddress("127.0.0.1", STRICT_NETWORK)).toBe("loopback");

    const company = await client({ trust: tls.cert, decide: (address) => address === "127.0.0.1" }).getCompany();
    expect(company.company.companyName).toBe("Demo Outfitters");
  });

  it("refuses the same call without the handed-in decision: the guard's own says loopback", async () => {
    expect(await failure(client().getCompany())).toEqual({ kind: "network", code: ADDRESS_REFUSED });
    // With only the certificate authority, the guard decides, and refuses.
    expect(await failure(client({ trust: tls.cert, decide: (address) => refusedAddress(address, STRICT_NETWORK) === null }).getCompany())).toEqual({
      kind: "network",
      code: ADDRESS_REFUSED,
    });
  });

  it("refuses a certificate no authority it trusts has signed", async () => {
    const refused = await failure(client({ trust: selfSignedCertificate().cert, decide: (address) => address === "127.0.0.1" }).getCompany());
    // Node's TLS names it: the server's certificate signs itself, and is not the one trusted.
    expect(refused).toEqual({ kind: "network", code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
  });
});
