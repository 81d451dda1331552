// The shop's pixel sweep on its own: what it keeps and what it deletes.
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { PIXEL_SIGNAL_TTL_MS, sweepPixelSignals } from "../../app/referrals/pixel-signals.server";
import { resetDatabase } from "../support/database";
import { TEST_SHOP } from "../support/shopify-requests";

beforeEach(resetDatabase);

const OTHER = "other-shop.myshopify.com";
const token = (n: number) => `t${String(n).padStart(31, "0")}`;

describe("the pixel sweep", () => {
  it("deletes the signals and its own finished jobs past their use, the shop's only", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - PIXEL_SIGNAL_TTL_MS - 60_000);
    for (const [n, shop, createdAt] of [[1, TEST_SHOP, old], [2, TEST_SHOP, now], [3, OTHER, old]] as const) {
      await prisma.pixelSignal.create({ data: { shop, checkoutToken: token(n), code: "ALICE10", createdAt } });
    }
    const job = (shop: string, kind: string, subject: string, status: string, runAt: Date) =>
      prisma.job.create({ data: { shop, kind, key: `${shop}:${kind}:${subject}`, payload: "{}", status, runAt } });
    await job(TEST_SHOP, "pixel.sweep", "slot:1", "done", old);
    await job(TEST_SHOP, "pixel.match", token(9), "done", old);
    await job(TEST_SHOP, "pixel.sweep", "slot:2", "queued", old);
    await job(TEST_SHOP, "pixel.sweep", "slot:3", "done", now);
    await job(TEST_SHOP, "order.record", "42", "done", old);
    await job(OTHER, "pixel.sweep", "slot:1", "done", old);

    expect(await sweepPixelSignals(prisma, TEST_SHOP, now)).toEqual({ reopened: 0, deleted: 1 });

    expect((await prisma.pixelSignal.findMany({ orderBy: { checkoutToken: "asc" } })).map((s) => s.checkoutToken)).toEqual([token(2), token(3)]);
    expect((await prisma.job.findMany({ orderBy: { key: "asc" } })).map((j) => j.key)).toEqual([
      `${OTHER}:pixel.sweep:slot:1`,
      `${TEST_SHOP}:order.record:42`,
      `${TEST_SHOP}:pixel.sweep:slot:2`,
      `${TEST_SHOP}:pixel.sweep:slot:3`,
    ]);
  });
});
