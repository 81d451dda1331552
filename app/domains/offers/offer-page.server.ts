import type { PrismaClient } from "@prisma/client";
import { enqueueOfferSync } from "./enqueue-offer.server";
import type { OfferSettings } from "./offer-settings";
import { offerSettingsOf } from "./offer-state";

// The Friend's offer card of the Campaigns page: what it shows of each
// campaign's offer, and the merchant's changes (each queues a sync).

export interface OfferView {
  campaignUid: string;
  settings: OfferSettings;
  paused: boolean;
  inShopify: boolean;
  codesInShopify: number;
  codesWaiting: number;
  /** Codes another discount of the shop already holds (a few of them, and how many). */
  takenCodes: string[];
  codesTaken: number;
  lastSyncAt: string | null;
  lastError: string | null;
}

export async function offerViews(db: PrismaClient, shop: string): Promise<Record<string, OfferView>> {
  const [offers, counts, taken] = await Promise.all([
    db.friendOffer.findMany({ where: { shop } }),
    db.offerCode.groupBy({ by: ["campaignUid", "state"], where: { shop }, _count: { _all: true } }),
    db.offerCode.findMany({ where: { shop, state: "taken" }, select: { campaignUid: true, code: true }, orderBy: { code: "asc" }, take: 200 }),
  ]);
  const count = (uid: string, state: string) => counts.find((c) => c.campaignUid === uid && c.state === state)?._count._all ?? 0;
  const views: Record<string, OfferView> = {};
  for (const offer of offers) {
    const uid = offer.campaignUid;
    views[uid] = {
      campaignUid: uid,
      settings: offerSettingsOf(offer),
      paused: offer.paused,
      inShopify: offer.discountId !== null,
      codesInShopify: count(uid, "added"),
      codesWaiting: count(uid, "waiting") + count(uid, "removing"),
      takenCodes: taken.filter((t) => t.campaignUid === uid).slice(0, 5).map((t) => t.code),
      codesTaken: count(uid, "taken"),
      lastSyncAt: offer.lastSyncAt?.toISOString() ?? null,
      lastError: offer.lastError,
    };
  }
  return views;
}

/** Creates or changes a campaign's offer and brings Shopify in step. */
export async function saveOffer(db: PrismaClient, shop: string, campaignUid: string, settings: OfferSettings): Promise<void> {
  await db.friendOffer.upsert({
    where: { shop_campaignUid: { shop, campaignUid } },
    create: { shop, campaignUid, ...settings },
    update: { ...settings },
  });
  await enqueueOfferSync(db, shop, campaignUid);
}

/** Pauses or resumes an offer: its discount in Shopify is turned off or on, its codes kept. */
export async function setOfferPaused(db: PrismaClient, shop: string, campaignUid: string, paused: boolean): Promise<boolean> {
  const { count } = await db.friendOffer.updateMany({ where: { shop, campaignUid }, data: { paused } });
  if (count > 0) await enqueueOfferSync(db, shop, campaignUid);
  return count > 0;
}
