// The order pipeline wired to a real sandbox service and the test database,
// with a clock the test moves.
import { afterAll, beforeAll, beforeEach } from "vitest";
import prisma from "../../app/wiring/db.server";
import { getEnv } from "../../app/wiring/env.server";
import { createLogger } from "../../app/platform/logger/logger.server";
import { sealToken } from "../../app/platform/crypto/sealing.server";
import { shopClient } from "../../app/domains/connection/shop-client.server";
import { CodeDirectory } from "../../app/domains/referrals/code-directory.server";
import { appJobContext, appWorker, type AppJobContext } from "../../app/wiring/jobs.server";
import { startSandbox, type SandboxHandle } from "../../sandbox/server";
import { current } from "./current";
import { installShop } from "./sessions";
import { resetDatabase } from "./database";
import { TEST_SHOP } from "./shopify-requests";
import { deliveriesPlanned } from "./kept-deliveries";

export { SEED } from "../../sandbox/seed";

export function startTestSandbox(): Promise<SandboxHandle> {
  return startSandbox({ port: 0, quiet: true, timeScale: 0.001 });
}

/** A shop as install (its offline session, unless `installed: false`) and onboarding leave it. */
export async function connectShop(
  sandbox: SandboxHandle,
  options: { shop?: string; token?: string; campaignUids?: string; scope?: string; approval?: string; trigger?: string; renewalRule?: string; installed?: boolean } = {},
): Promise<void> {
  const { shop = TEST_SHOP, token = sandbox.token, installed = true, ...settings } = options;
  const data = {
    serviceBaseUrl: sandbox.baseUrl,
    serviceUsername: sandbox.username,
    serviceTokenSealed: sealToken(token, getEnv().CREDENTIALS_KEY, { shop, column: "Shop.serviceTokenSealed" }),
    companyName: "Demo Outfitters",
    connectionStatus: "connected",
    campaignUids: "1001",
    ...settings,
  };
  if (installed) await installShop(shop);
  await prisma.shop.upsert({ where: { shop }, create: { shop, ...data }, update: data });
}

/** The shop's client of the referral service, made as the app makes it, allowed to reach the sandbox on loopback (or why there is none). */
export const shopServiceAccess = (shop: string, timeoutMs: number) =>
  shopClient(prisma, shop, { credentialsKey: getEnv().CREDENTIALS_KEY, timeoutMs, network: { allowLoopback: true } });

/** The test shop's client of the referral service; an error when the shop has none. */
export async function shopServiceClient(timeoutMs = 5_000) {
  const access = await shopServiceAccess(TEST_SHOP, timeoutMs);
  if (!access.ok) throw new Error(access.reason);
  return access.client;
}

export interface TestPipeline {
  ctx: AppJobContext;
  advance(ms: number): void;
  /** Runs every due job, like a worker would, once every delivered webhook is planned. */
  drain(): Promise<number>;
}

export function testPipeline(options: { timeoutMs?: number } = {}): TestPipeline {
  // Real time plus what the test skipped ahead.
  let offset = 0;
  const ctx = appJobContext({
    logger: createLogger({ level: "silent" }),
    clientForShop: (shop) => shopServiceAccess(shop, options.timeoutMs ?? 2_000),
    now: () => new Date(Date.now() + offset),
    // Its own memory of codes: the sandbox is new for each test, so what an earlier test learnt is not true now.
    codes: new CodeDirectory(),
  });
  const worker = appWorker(ctx, { workerId: "test-worker" });
  return {
    ctx,
    advance(ms) {
      offset += ms;
    },
    async drain() {
      await deliveriesPlanned();
      return worker.drain();
    },
  };
}

async function control(sandbox: SandboxHandle, path: string, method = "GET", body?: unknown) {
  const response = await fetch(`${sandbox.baseUrl}/_sandbox/${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox control ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

export const sandboxFaults = (sandbox: SandboxHandle, faults: Record<string, unknown>) =>
  control(sandbox, "faults", "POST", faults);
export const clearSandboxFaults = (sandbox: SandboxHandle) => control(sandbox, "faults", "DELETE");
export const rotateSandboxToken = (sandbox: SandboxHandle, token: string) =>
  control(sandbox, "credentials", "POST", { username: sandbox.username, token });

export interface LedgerCommission {
  transaction_id: string | null;
  campaign_uid: string;
  revenue_amount: string;
  commission_amount: string;
  state: string;
  affiliate_email: string;
}

export async function sandboxCommissions(sandbox: SandboxHandle, transactionId?: string): Promise<LedgerCommission[]> {
  const ledger = (await control(sandbox, "ledger")) as { commissions: LedgerCommission[] };
  return transactionId === undefined ? ledger.commissions : ledger.commissions.filter((c) => c.transaction_id === transactionId);
}

export async function sandboxRequests(sandbox: SandboxHandle, operation: string): Promise<unknown[]> {
  const ledger = (await control(sandbox, "ledger")) as { requests: { operation: string }[] };
  return ledger.requests.filter((r) => r.operation === operation);
}

/**
 * One sandbox service for a test file, reset with the database before each
 * test. The returned handle stands for the running sandbox (it is started in
 * beforeAll), so tests use it like the handle itself.
 */
export function useTestSandbox(): SandboxHandle {
  let sandbox: SandboxHandle | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.close());
  beforeEach(async () => {
    sandbox!.reset();
    await resetDatabase();
  });
  return current("The test sandbox", () => sandbox);
}
