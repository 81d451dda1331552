import type { PrismaClient } from "@prisma/client";
import { fieldErrorsOf } from "./form-data";
import { offerFormSchema } from "../../domains/offers/offer-form.server";
import { saveOffer, setOfferPaused } from "../../domains/offers/offer-page.server";

export const OFFER_INTENTS = ["save-offer", "pause-offer", "resume-offer"] as const;
export type OfferIntent = (typeof OFFER_INTENTS)[number];

export type OfferActionResult =
  | { ok: true; intent: OfferIntent; campaignUid: string }
  | { ok: false; intent: OfferIntent; campaignUid: string; fieldErrors: Record<string, string> };

/** The Friend's offer card's forms: save, pause, resume. Each queues a sync; the answer does not wait for Shopify. */
export async function offerAction(db: PrismaClient, shop: string, intent: OfferIntent, fields: Record<string, string | string[]>): Promise<OfferActionResult> {
  const campaignUid = String(fields.campaignUid ?? "");
  if (intent !== "save-offer") {
    const found = await setOfferPaused(db, shop, campaignUid, intent === "pause-offer");
    return found ? { ok: true, intent, campaignUid } : { ok: false, intent, campaignUid, fieldErrors: { campaignUid: "This campaign has no offer yet." } };
  }
  const parsed = offerFormSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, intent, campaignUid, fieldErrors: fieldErrorsOf(parsed.error.issues) };
  const { campaignUid: _uid, ...settings } = parsed.data;
  await saveOffer(db, shop, campaignUid, settings);
  return { ok: true, intent, campaignUid };
}
