import { z } from "zod";
import { DECIMAL_AMOUNT, ELIGIBILITIES, OFFER_KINDS } from "./offer-settings";

// The Friend's offer card's form, checked in the action. Server-only: the
// card's own module (offer-settings.ts) reaches the browser, zod must not.

const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v);
const checkbox = z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean());

export const offerFormSchema = z
  .object({
    campaignUid: z.string().regex(/^[\w-]{1,40}$/, "This campaign id isn't valid."),
    kind: z.enum(OFFER_KINDS, { message: "Choose what the friend gets." }),
    value: z.preprocess(blankToNull, z.string().regex(DECIMAL_AMOUNT, "Enter the amount as a number, e.g. 10 or 7.50.").nullable()),
    eligibility: z.enum(ELIGIBILITIES, { message: "Choose who may use the offer." }),
    oncePerCustomer: checkbox,
    minimumSubtotal: z.preprocess(blankToNull, z.string().regex(DECIMAL_AMOUNT, "Enter the minimum as a number, e.g. 50.").nullable()),
    combinesOrder: checkbox,
    combinesProduct: checkbox,
    combinesShipping: checkbox,
  })
  .refine((o) => o.kind !== "percentage" || o.value === null || (Number(o.value) > 0 && Number(o.value) <= 100), {
    path: ["value"],
    message: "A percentage is more than 0 and at most 100.",
  })
  .refine((o) => o.kind !== "fixed_amount" || o.value === null || Number(o.value) > 0, {
    path: ["value"],
    message: "The amount off must be more than 0.",
  });
