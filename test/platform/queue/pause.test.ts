// A job that pauses holds its shop's other queued jobs, unless it pauses
// alone: a refused Shopify token stops the jobs that call Shopify, not the
// orders, which only call the referral service.
import { z } from "zod";
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { logger } from "../../../app/platform/logger/logger.server";
import { claimNextJob } from "../../../app/platform/queue/claim.server";
import { defineJobKind } from "../../../app/platform/queue/job-kind";
import { createJobRegistry, defineJob, type QueueContext } from "../../../app/platform/queue/registry";
import { runJob } from "../../../app/platform/queue/run-job.server";
import { resetDatabase, testDatabaseKind } from "../../support/database";
import { TEST_SHOP } from "../../support/shopify-requests";

const ALONE = defineJobKind({ name: "test.pause-alone", payload: z.object({}) });
const WHOLE = defineJobKind({ name: "test.pause-shop", payload: z.object({}) });
const OTHER = defineJobKind({ name: "test.other", payload: z.object({}) });
const registry = createJobRegistry<QueueContext>([
  defineJob(ALONE, { handle: async () => ({ type: "pause", reason: "Shopify refused the shop's token.", alone: true }) }),
  defineJob(WHOLE, { handle: async () => ({ type: "pause", reason: "The referral service refused the credentials." }) }),
  defineJob(OTHER, { handle: async () => ({ type: "done" }) }),
]);
const ctx: QueueContext = { db: prisma, logger, now: () => new Date() };

async function runFirst(kind: string): Promise<void> {
  await prisma.job.create({ data: { shop: TEST_SHOP, kind, key: `${kind}:1`, payload: "{}", runAt: new Date(Date.now() - 1_000) } });
  await prisma.job.create({ data: { shop: TEST_SHOP, kind: OTHER.name, key: `${OTHER.name}:1`, payload: "{}", runAt: new Date(Date.now() + 60_000) } });
  const taken = await claimNextJob(prisma, { database: testDatabaseKind(), workerId: "w", leaseMs: 10_000, now: new Date() });
  expect(taken?.kind).toBe(kind);
  await runJob(ctx, registry, taken!, { workerId: "w" });
}

beforeEach(resetDatabase);

const statusOf = async (kind: string) => (await prisma.job.findFirstOrThrow({ where: { kind } })).status;

describe("a job that pauses", () => {
  it("holds the shop's other queued jobs", async () => {
    await runFirst(WHOLE.name);
    expect([await statusOf(WHOLE.name), await statusOf(OTHER.name)]).toEqual(["paused", "paused"]);
  });

  it("holds only itself when it pauses alone", async () => {
    await runFirst(ALONE.name);
    expect([await statusOf(ALONE.name), await statusOf(OTHER.name)]).toEqual(["paused", "queued"]);
  });
});
