import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { credentialsKeys, parseEnv } from "../../../app/wiring/env.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { openToken, sealToken, type CredentialsKey } from "../../../app/platform/crypto/sealing.server";
import { sealClearSessionTokens } from "../../../app/platform/crypto/reseal.server";
import { shopConnection } from "../../../app/domains/connection/shop-client.server";
import { ensureInboundEndpoint, findInboundEndpoint, readInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { receiveServiceWebhook } from "../../../app/domains/service-events/receive.server";
import { acceptCustomerRedact, KEY_LOST, runCustomerRedact } from "../../../app/domains/privacy/redact-customer.server";
import { eraseAtService } from "../../../app/domains/privacy/service-erasure.server";
import { repoRoot } from "../../entry/admin/app-server";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";

// A CREDENTIALS_KEY rotation (docs/operations.md, "Rotating CREDENTIALS_KEY"): every stored secret sealed under
// key A, the app moved to key B with A kept for reading, `npm run credentials:reseal`, A dropped. And what the
// merchant and the jobs meet when a value opens with no key.

const A = randomBytes(32).toString("base64");
const B = randomBytes(32).toString("base64");
const C = randomBytes(32).toString("base64");
const logger = createLogger({ level: "silent" });
const EMAIL = "gone@example.com";
const SERVICE_TOKEN = "service-token-of-the-shop";

/** Runs `npm run credentials:reseal` on this file's database with these keys; its exit code and output. */
function reseal(keys: { CREDENTIALS_KEY: string; CREDENTIALS_KEY_PREVIOUS?: string }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH!, HOME: process.env.HOME!, NODE_ENV: "development", DATABASE_URL: process.env.DATABASE_URL!, ...keys };
    const child = spawn("npm", ["run", "--silent", "credentials:reseal"], { cwd: repoRoot, env: env as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** Every kind of sealed value, sealed under `key` as the app seals them. */
async function sealEverythingUnder(key: string) {
  await installShop();
  await sealClearSessionTokens(prisma, key);
  await prisma.shop.upsert({
    where: { shop: TEST_SHOP },
    create: { shop: TEST_SHOP },
    update: {},
  });
  await prisma.shop.update({
    where: { shop: TEST_SHOP },
    data: {
      serviceBaseUrl: "https://referrals.example.com",
      serviceUsername: "demo",
      serviceTokenSealed: sealToken(SERVICE_TOKEN, key, { shop: TEST_SHOP, column: "Shop.serviceTokenSealed" }),
      connectionStatus: "connected",
    },
  });
  const endpoint = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: key });
  await prisma.redactionLog.create({
    data: { shop: TEST_SHOP, subjectHash: "h", deleted: "{}", serviceState: "pending", pendingEmailSealed: sealToken(EMAIL, key, { shop: TEST_SHOP, column: "RedactionLog.pendingEmailSealed" }) },
  });
  const payload = { shop_id: 60_241_035_329, shop_domain: TEST_SHOP, customer: { id: 7_365_417_959_627, email: EMAIL, phone: null }, orders_to_redact: [] };
  await acceptCustomerRedact(prisma, logger, { shop: TEST_SHOP, payload, webhookId: "redact-1" }, { credentialsKey: key });
  return endpoint;
}

/** Each stored secret, opened with these keys by the code that reads it. */
async function openEverything(keys: CredentialsKey, endpoint: { endpointId: string; secret: string }) {
  const connection = await shopConnection(prisma, TEST_SHOP, { credentialsKey: keys });
  const found = await findInboundEndpoint(prisma, endpoint.endpointId, { credentialsKey: keys });
  const session = await prisma.session.findFirstOrThrow({ where: { shop: TEST_SHOP } });
  const log = await prisma.redactionLog.findFirstOrThrow({ where: { shop: TEST_SHOP, pendingEmailSealed: { not: null } } });
  const job = await prisma.job.findFirstOrThrow({ where: { kind: "privacy.customer-redact" } });
  return {
    serviceToken: connection.ok,
    webhookSecret: found && "secrets" in found ? found.secrets[0]!.secret : null,
    accessToken: openToken(session.accessToken, keys, { shop: TEST_SHOP, column: "Session.accessToken" }),
    pendingEmail: openToken(log.pendingEmailSealed!, keys, { shop: TEST_SHOP, column: "RedactionLog.pendingEmailSealed" }),
    waitingRedaction: JSON.parse(openToken((JSON.parse(job.payload) as { who: string }).who, keys, { shop: TEST_SHOP, column: "Job.payload:privacy.customer-redact" })).email,
  };
}

const everythingOpen = (secret: string) => ({ serviceToken: true, webhookSecret: secret, accessToken: "shpat_test_token", pendingEmail: EMAIL, waitingRedaction: EMAIL });

beforeEach(async () => {
  await prisma.job.deleteMany();
  await prisma.redactionLog.deleteMany();
  await prisma.session.deleteMany();
  await prisma.shop.deleteMany();
});

describe("rotating CREDENTIALS_KEY", () => {
  it("opens everything under A, then under B with A kept for reading; the reseal moves every value to B, twice changes nothing; then B alone opens everything", async () => {
    // GIVEN every kind of stored secret sealed under key A
    const endpoint = await sealEverythingUnder(A);
    expect(await openEverything(A, endpoint)).toEqual(everythingOpen(endpoint.secret));

    // WHEN the app runs with CREDENTIALS_KEY=B and CREDENTIALS_KEY_PREVIOUS=A, as its environment reads them
    const rotating = credentialsKeys(parseEnv({ NODE_ENV: "development", CREDENTIALS_KEY: B, CREDENTIALS_KEY_PREVIOUS: ` ${A} ` }));
    expect(rotating).toEqual({ current: B, previous: [A] });
    // THEN everything still opens, and what is sealed now is sealed with B alone
    expect(await openEverything(rotating, endpoint)).toEqual(everythingOpen(endpoint.secret));
    expect(() => openToken(sealToken("new", rotating, { shop: TEST_SHOP, column: "Shop.serviceTokenSealed" }), A, { shop: TEST_SHOP, column: "Shop.serviceTokenSealed" })).toThrow(/cannot be decrypted/);

    // WHEN the reseal runs, and runs again
    const first = await reseal({ CREDENTIALS_KEY: B, CREDENTIALS_KEY_PREVIOUS: A });
    expect(first).toMatchObject({ code: 0 });
    expect(first.output).toContain("Sealed again with CREDENTIALS_KEY: 5. Already sealed with it: 0. Opened by no key: 0.");
    expect(first.output).toContain("CREDENTIALS_KEY_PREVIOUS can be removed");
    const again = await reseal({ CREDENTIALS_KEY: B, CREDENTIALS_KEY_PREVIOUS: A });
    expect(again.output).toContain("Sealed again with CREDENTIALS_KEY: 0. Already sealed with it: 5. Opened by no key: 0.");

    // THEN with A dropped, B alone opens everything, and A opens nothing any more
    expect(await openEverything(B, endpoint)).toEqual(everythingOpen(endpoint.secret));
    await expect(openEverything(A, endpoint)).rejects.toThrow(/cannot be decrypted/);
  }, 120_000);

  it("with a key that opens nothing: the service's deliveries get 503, the Service events card and the Data requests page say why, the reseal names each place", async () => {
    const endpoint = await sealEverythingUnder(A);
    const lost = C;

    // The service's delivery: refused for now (503, so it is delivered again), not a crash.
    const delivery = { endpointId: endpoint.endpointId, rawBody: "{}", signature: "t=1,v1=00" };
    expect(await receiveServiceWebhook(prisma, logger, delivery, { credentialsKey: lost })).toEqual({ status: 503, outcome: "secret_unreadable" });
    expect(await readInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: lost })).toMatchObject({ secretUnreadable: true, newSecret: null });
    expect(await readInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: A })).toMatchObject({ secretUnreadable: false });

    // The order jobs: the shop's connection says why (they pause with it, as before).
    expect(await shopConnection(prisma, TEST_SHOP, { credentialsKey: lost })).toEqual({ ok: false, problem: "unreadable_token" });

    // The queued customers/redact: a failed redaction on the Data requests page, with the reason.
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "privacy.customer-redact" } });
    const ctx = { db: prisma, logger, credentialsKey: lost, serviceEventJobKind: "service.event", appSecret: "test-api-secret" };
    expect(await runCustomerRedact(ctx, TEST_SHOP, JSON.parse(job.payload), null)).toEqual({ unreadable: true });
    expect(await prisma.redactionLog.findFirstOrThrow({ where: { shop: TEST_SHOP, serviceState: "failed" } })).toMatchObject({ serviceDetail: KEY_LOST });

    // The erasure at the service: fails with the reason, its sealed email kept for Retry.
    const pending = await prisma.redactionLog.findFirstOrThrow({ where: { shop: TEST_SHOP, serviceState: "pending" } });
    const connected = { ok: true as const, client: {} as never, shop: {} as never };
    const outcome = await eraseAtService({ db: prisma, logger, credentialsKey: lost, now: () => new Date(), clientForShop: async () => connected } as never, TEST_SHOP, pending.id);
    expect(outcome).toEqual({ type: "fail", reason: KEY_LOST });
    expect((await prisma.redactionLog.findUniqueOrThrow({ where: { id: pending.id } })).pendingEmailSealed).toBe(pending.pendingEmailSealed);

    // The reseal with the lost key: nothing changed, each place named, exit 2.
    const run = await reseal({ CREDENTIALS_KEY: lost });
    expect(run.code).toBe(2);
    expect(run.output).toContain("Sealed again with CREDENTIALS_KEY: 0. Already sealed with it: 0. Opened by no key: 5.");
    for (const column of ["Shop.serviceTokenSealed", "Shop.inboundWebhookSecretSealed", "RedactionLog.pendingEmailSealed", "Job.payload:privacy.customer-redact", "Session.accessToken"]) {
      expect(run.output).toContain(`${column} of ${TEST_SHOP}`);
    }
    // And A still opens all of it.
    expect(await openEverything(A, endpoint)).toEqual(everythingOpen(endpoint.secret));
  }, 120_000);
});
