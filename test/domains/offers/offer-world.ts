// What every friend's offer test stands on: the real sandbox service, a
// fresh database with the shop connected, a Shopify Admin stand-in as the
// shop's Admin API, and the job pipeline.
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { ReferralClient } from "../../../app/platform/referral-api";
import type { SandboxHandle } from "../../../sandbox/server";
import { resetDatabase } from "../../support/database";
import { connectShop, startTestSandbox, testPipeline, type TestPipeline } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { sandboxClient } from "../../support/sandbox-client";

export interface OfferWorld {
  sandbox: SandboxHandle;
  pipeline: TestPipeline;
  shopify: ShopifyAdminStandIn;
  service: ReferralClient;
}

export function useOfferWorld(): OfferWorld {
  const world = {} as OfferWorld;
  beforeAll(async () => {
    world.sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await world.sandbox?.close();
  });
  beforeEach(async () => {
    const { sandbox } = world;
    sandbox.reset();
    await resetDatabase();
    await connectShop(sandbox);
    world.shopify = new ShopifyAdminStandIn();
    world.pipeline = testPipeline();
    world.pipeline.ctx.adminForShop = world.shopify.access();
    world.service = sandboxClient(sandbox);
  });
  return world;
}
