// The demo's friend's offer: the offer of campaign 1001 is put in a Shopify
// Admin stand-in (checked against Shopify's published schema), a friend
// follows Bob's link in Chromium and the storefront embed applies his code,
// then the friend's order with that code is credited to Bob by it.
import type { PrismaClient } from "@prisma/client";
import { createReferralClient } from "../../app/platform/referral-api";
import { realSleep } from "../../app/platform/http/sleep";
import { publishOfferCampaigns } from "../../app/domains/offers/offer-metafield.server";
import { describeOffer, OFFER_DEFAULTS } from "../../app/domains/offers/offer-settings";
import { syncOffer } from "../../app/domains/offers/sync-offer.server";
import { browserAvailable, launchBrowser, watchNetwork } from "../../test/support/browser";
import { ShopifyAdminStandIn } from "../../test/support/shopify-admin-standin";
import { renderBlock, storefrontPage } from "../../test/domains/storefront/liquid-lite";
import { sendHtml, sendJson, startStorefront } from "../../test/domains/storefront/storefront-server";
import { DEMO_SHOP } from "../lib/demo-shop";
import { shopifyOrder } from "../lib/sample-orders";

export const offerOrder = shopifyOrder({ name: "#1008", email: "lena@example.com", discountCodes: ["BOB10"], subtotal: "90.00" });

interface Deps {
  db: PrismaClient;
  service: { baseUrl: string; username: string; token: string };
  send(topic: string, body: unknown): Promise<{ status: number }>;
  waitForQueue(): Promise<void>;
  log(line: string): void;
  check(ok: boolean, problem: string): void;
}

export async function friendOfferDemo({ db, service, send, waitForQueue, log, check }: Deps): Promise<void> {
  const shopify = new ShopifyAdminStandIn();
  const client = createReferralClient({ ...service, network: { allowLoopback: true } });
  const admin = { admin: shopify, sleep: realSleep };
  await db.friendOffer.create({ data: { shop: DEMO_SHOP, campaignUid: "1001", ...OFFER_DEFAULTS } });
  await syncOffer({ db, client, admin, now: () => new Date(), pollMs: 50 }, DEMO_SHOP, "1001");
  await publishOfferCampaigns(admin, db, DEMO_SHOP);
  const discount = shopify.discountTitled("Friends & Family");
  const codes = shopify.codesOf(discount.id);
  const percentage = (discount.input.customerGets as { value: { percentage: number } }).value.percentage;
  const once = discount.input.appliesOncePerCustomer ? "once each" : "any number of times";
  log(`friend's offer in Shopify: "${String(discount.input.title)}", ${describeOffer("percentage", String(percentage * 100))}, ${once}, ${codes.length} codes`);
  check(codes.includes("BOB10") && shopify.refused.length === 0, "the offer's discount does not hold BOB10, or a document was refused");

  if (browserAvailable) {
    const applied: string[] = [];
    const storefront = await startStorefront((req, res) => {
      const path = /^\/discount\/([^/]+)$/.exec(req.path);
      if (path) {
        applied.push(decodeURIComponent(path[1]!));
        res.writeHead(302, { location: "/", "set-cookie": `discount_code=${path[1]}; Path=/` }).end();
        return;
      }
      if (req.path.startsWith("/cart")) return sendJson(res, 200, { token: "cart-1", attributes: {}, item_count: 0, items: [] });
      const app = { metafields: { referral_bridge: { offer_campaigns: { value: shopify.appMetafields.get("referral_bridge.offer_campaigns") } } } };
      sendHtml(res, storefrontPage(`<h1>Demo Outfitters</h1>\n${renderBlock("referral-tracking", { globals: { app } }).html}`));
    });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const network = watchNetwork(page);
      await page.goto(`${storefront.origin}/?mbsy=BOB10&campaignid=1001`);
      await network.settled();
      const cookie = (await page.context().cookies()).find((c) => c.name === "discount_code")?.value;
      log(`a friend follows Bob's link in Chromium: the embed applied ${applied.join(", ") || "nothing"}; checkout will show discount ${cookie ?? "none"}`);
      check(cookie === "BOB10", `the embed did not apply BOB10 (cookie ${cookie})`);
    } finally {
      await browser.close();
      await storefront.close();
    }
  } else {
    log("no Chromium here: the storefront step is skipped");
  }

  const sent = await send("orders/paid", offerOrder);
  log(`orders/paid ${offerOrder.name} (the friend's order, discount code BOB10) -> ${sent.status}`);
  await waitForQueue();
  const record = await db.orderRecord.findFirst({ where: { orderId: String(offerOrder.id) } });
  log(`${offerOrder.name}: ${record?.status}, code ${record?.shortCode} from ${record?.codeSource}`);
  check(record?.status === "recorded" && record.codeSource === "offer_code" && record.shortCode === "BOB10", `${offerOrder.name} was not credited by the offer code`);
  for await (const commission of client.iterateCommissions()) {
    if (commission.transactionId !== String(offerOrder.id)) continue;
    log(`at the service: commission ${commission.commissionAmount} for ${commission.affiliateEmail} on ${commission.revenueAmount}`);
    check(commission.affiliateEmail === "bob@example.com", `${offerOrder.name} credited ${commission.affiliateEmail}, not bob`);
  }
}
