// SSRF through the referral service's base URL (issue 14). Connections go to
// loopback listeners only; private, link-local and metadata addresses are
// checked on the address filter and on a replaced DNS, never by connecting.
import type { LookupAddress } from "node:dns";
import { createServer, type Server } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectShop as connectThroughAdmin } from "../../../app/entry/admin/connection.server";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { ADDRESS_REFUSED, createGuardedFetch, createReferralClient, isReferralApiError, refusedAddress, STRICT_NETWORK } from "../../../app/platform/referral-api";
import { action } from "../../../app/routes/app.settings";
import { useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { submit, type ActionBody } from "./admin-requests";

const sandbox = useTestSandbox();

beforeEach(async () => {
  await installShop();
});

const connect = (baseUrl: string) => submit(action, "/app/settings", { intent: "connect", baseUrl, username: "demo", token: "demo-token" });
const storedUrl = async () => (await prisma.shop.findUnique({ where: { shop: TEST_SHOP } }))?.serviceBaseUrl ?? null;

function refusal(body: ActionBody<typeof action>) {
  if (body.ok) throw new Error(`Expected a refusal: ${JSON.stringify(body)}`);
  return { fieldErrors: ("fieldErrors" in body ? body.fieldErrors : {}) as Record<string, string | undefined>, error: "error" in body ? body.error : undefined };
}

const listeners: Server[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A loopback HTTP server; `hits` counts the requests it got. */
async function loopbackServer(answer: (res: import("node:http").ServerResponse) => void) {
  const state = { hits: 0, url: "" };
  const server = createServer((_req, res) => {
    state.hits += 1;
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  listeners.push(server);
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return state;
}

describe("the address filter", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "::1",
    "0.0.0.0",
    "10.0.0.5",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.254",
    "fd00:ec2::254",
    "fc00::1",
    "fe80::1",
    "::",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::ffff:127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "2002:a00:5::1",
    "224.0.0.1",
    "255.255.255.255",
  ])("refuses %s in production", (address) => {
    expect(refusedAddress(address, STRICT_NETWORK)).not.toBeNull();
  });

  it.each(["8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111"])("allows the public address %s", (address) => {
    expect(refusedAddress(address, STRICT_NETWORK)).toBeNull();
  });

  it("allows loopback, and only loopback, under the development setting", () => {
    const dev = { allowLoopback: true };
    expect(refusedAddress("127.0.0.1", dev)).toBeNull();
    expect(refusedAddress("::1", dev)).toBeNull();
    expect(refusedAddress("10.0.0.5", dev)).toBe("private_address");
    expect(refusedAddress("169.254.169.254", dev)).toBe("private_address");
  });
});

describe("settings: the base URL a merchant enters", () => {
  it.each([
    ["https://10.0.0.5/", /private, local and cloud metadata/],
    ["https://169.254.169.254/latest/meta-data", /private, local and cloud metadata/],
    ["http://169.254.169.254/", /private, local and cloud metadata|https:\/\//],
    ["https://[::ffff:a9fe:a9fe]/", /private, local and cloud metadata/],
    ["https://100.64.0.1/", /private, local and cloud metadata/],
    ["https://[fd00:ec2::254]/", /private, local and cloud metadata/],
    ["https://metadata.google.internal/", /private, local and cloud metadata/],
    ["https://0.0.0.0:6379/", /private, local and cloud metadata/],
  ])("refuses %s before connecting, and stores nothing", async (baseUrl, words) => {
    const { status, body } = await connect(baseUrl);
    expect(status).toBe(400);
    expect(refusal(body).fieldErrors.baseUrl).toMatch(words);
    expect(await storedUrl()).toBeNull();
  });

  it("refuses a fragment or a query that would drop the /api/v2/ path", async () => {
    for (const baseUrl of [`${sandbox.baseUrl}/#`, `${sandbox.baseUrl}/?`, `${sandbox.baseUrl}?x=1`]) {
      const { status, body } = await connect(baseUrl);
      expect(status).toBe(400);
      expect(refusal(body).fieldErrors.baseUrl).toMatch(/query|fragment/);
    }
    expect(await storedUrl()).toBeNull();
  });

  it("does not follow a redirect, and says so in its own words", async () => {
    const target = await loopbackServer((res) => res.writeHead(200).end("{}"));
    const redirecting = await loopbackServer((res) => res.writeHead(302, { Location: `${sandbox.baseUrl}/` }).end());
    const { status, body } = await connect(redirecting.url);
    expect(status).toBe(400);
    expect(refusal(body).error?.title).toBe("This address redirects elsewhere");
    expect(redirecting.hits).toBe(1);
    expect(target.hits).toBe(0);
    expect(await storedUrl()).toBeNull();
  });

  it("never shows the merchant the text another server sent", async () => {
    const banner = "REDIS-6379-BANNER-e1f2";
    for (const [status, text] of [
      [400, JSON.stringify({ response: { errors: [banner] } })],
      [500, JSON.stringify({ error: banner, detail: banner, message: banner })],
      [200, JSON.stringify({ response: { success: false, errors: [banner] } })],
      [404, banner],
    ] as const) {
      const server = await loopbackServer((res) => res.writeHead(status, { "Content-Type": "application/json" }).end(text));
      const answer = await connect(server.url);
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body)).not.toContain(banner);
    }
  });

  it("refuses this machine in production, where the development setting is off, without connecting", async () => {
    const ctx = { db: prisma, credentialsKey: getEnv().CREDENTIALS_KEY, network: STRICT_NETWORK };
    const listener = await loopbackServer((res) => res.writeHead(200).end("{}"));
    for (const baseUrl of [listener.url, listener.url.replace("127.0.0.1", "localhost"), "http://example.com", "https://[::1]:1/"]) {
      const result = await connectThroughAdmin(ctx, TEST_SHOP, { baseUrl, username: "demo", token: "demo-token" });
      expect(result.ok).toBe(false);
      expect(result.ok ? null : result.fieldErrors.baseUrl).toMatch(/public address|https:\/\//);
    }
    expect(listener.hits).toBe(0);
  });
});

describe("every connection checks the address DNS gives", () => {
  /** DNS replaced for the test: every name resolves to the given addresses. */
  const resolvingTo =
    (...addresses: string[]) =>
    (_host: string, _options: unknown, callback: (error: Error | null, addresses: LookupAddress[]) => void) =>
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
      );

  const client = (baseUrl: string, resolve: ReturnType<typeof resolvingTo>, allowLoopback: boolean) =>
    createReferralClient({
      baseUrl,
      username: "demo",
      token: "demo-token",
      fetch: createGuardedFetch({ allowLoopback }, resolve as never),
      timeoutMs: 5_000,
    });

  async function failure(call: Promise<unknown>) {
    const error = await call.then(
      () => null,
      (e: unknown) => e
    );
    if (!isReferralApiError(error)) throw new Error(`Expected a ReferralApiError, got ${String(error)}`);
    return { kind: error.kind, code: (error.cause as { code?: string } | undefined)?.code };
  }

  it("refuses a name that resolves to a private or metadata address (no packet is sent: the lookup refuses)", async () => {
    for (const addresses of [["10.0.0.5"], ["169.254.169.254"], ["8.8.8.8", "192.168.0.1"], ["fd00:ec2::254"]]) {
      expect(await failure(client("https://service.example", resolvingTo(...addresses), true).getCompany())).toEqual({
        kind: "network",
        code: ADDRESS_REFUSED,
      });
    }
  });

  it("connects to exactly the address it checked: a name pinned to loopback reaches the loopback listener in development only", async () => {
    const port = new URL(sandbox.baseUrl).port;
    const company = await client(`http://service.example:${port}`, resolvingTo("127.0.0.1"), true).getCompany();
    expect(company.company.companyName).toBe("Demo Outfitters");

    expect(await failure(client(`http://service.example:${port}`, resolvingTo("127.0.0.1"), false).getCompany())).toEqual({
      kind: "network",
      code: ADDRESS_REFUSED,
    });
  });
});
