// An order that carries a friend's offer code is credited by that code: it
// settles which of the order's codes is the referral one, without asking the
// referral service whose code it is.
import { beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { readExplanation } from "../../../app/domains/referrals/explanation";
import type { SandboxHandle } from "../../../sandbox/server";
import { receiveOrder, recordOf } from "../../entry/admin/fixtures";
import type { TestPipeline } from "../../support/pipeline";
import { useOfferWorld } from "./offer-world";
import { TEST_SHOP } from "../../support/shopify-requests";

let sandbox: SandboxHandle;
let pipeline: TestPipeline;

const world = useOfferWorld();
beforeEach(async () => {
  ({ sandbox, pipeline } = world);
  await prisma.offerCode.create({ data: { shop: TEST_SHOP, campaignUid: "1001", code: "BOB10", email: "bob@example.com", state: "added" } });
});

it("sends the offer code as short_code, marks it in the explanation and asks the service nothing about codes", async () => {
  // The link kept in the cart names Alice, but the friend used Bob's offer code (typed in lower case) at checkout.
  const orderId = await receiveOrder({ discountCodes: ["WELCOME5", "bob10"] });
  await pipeline.drain();

  const record = await recordOf(orderId);
  expect(record).toMatchObject({ status: "recorded", shortCode: "bob10", codeSource: "offer_code" });
  const explanation = readExplanation(record?.explanation)!;
  expect(explanation.winner).toMatchObject({ code: "bob10", source: "offer_code", sentAs: "short_code", referrer: "bob@example.com" });
  expect(explanation.signals.find((s) => s.code === "bob10")).toMatchObject({ source: "offer_code", won: true });

  const ledger = sandbox.ledger() as unknown as { events: { params: Record<string, string> }[]; requests: { operation: string }[] };
  const sent = ledger.events.filter((e) => e.params.transaction_uid === orderId);
  expect(sent.map((e) => e.params.short_code)).toEqual(["bob10"]);
  expect(ledger.requests.filter((r) => r.operation === "shortcode/get")).toEqual([]);
});

it("leaves a code that is not the app's to the service, as before", async () => {
  await prisma.offerCode.updateMany({ data: { state: "removed" } });
  const orderId = await receiveOrder({ discountCodes: ["bob10"] });
  await pipeline.drain();
  const explanation = readExplanation((await recordOf(orderId))?.explanation)!;
  expect(explanation.winner).toMatchObject({ code: "ALICE10", source: "cart_attribute" });
  const ledger = sandbox.ledger() as unknown as { requests: { operation: string }[] };
  expect(ledger.requests.filter((r) => r.operation === "shortcode/get").length).toBeGreaterThan(0);
});
