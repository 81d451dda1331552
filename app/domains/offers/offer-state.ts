import type { FriendOffer } from "@prisma/client";
import { ELIGIBILITIES, OFFER_DEFAULTS, OFFER_KINDS, type Eligibility, type OfferKind, type OfferSettings } from "./offer-settings";

/** The merchant's settings of a stored offer (unknown stored words fall back to the defaults). */
export function offerSettingsOf(row: Pick<FriendOffer, keyof OfferSettings>): OfferSettings {
  return {
    kind: (OFFER_KINDS as readonly string[]).includes(row.kind) ? (row.kind as OfferKind) : OFFER_DEFAULTS.kind,
    value: row.value,
    eligibility: (ELIGIBILITIES as readonly string[]).includes(row.eligibility) ? (row.eligibility as Eligibility) : OFFER_DEFAULTS.eligibility,
    oncePerCustomer: row.oncePerCustomer,
    minimumSubtotal: row.minimumSubtotal,
    combinesOrder: row.combinesOrder,
    combinesProduct: row.combinesProduct,
    combinesShipping: row.combinesShipping,
  };
}
