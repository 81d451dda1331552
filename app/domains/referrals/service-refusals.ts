// What the referral service's refusals of event/record mean for a merchant.
// The service answers with English sentences (the interface document lists
// their patterns; sandbox/README.md items 13 and 25-26 the exact texts), so
// they are read by meaning, not matched whole.

export type Refusal =
  /** The short code sent is not a referrer's: the visitor's link was wrong or old. */
  | { kind: "unknown_short_code"; code: string }
  /** The coupon sent is not a referrer's: a store promotion. */
  | { kind: "unknown_coupon"; code: string }
  /** No code, and the customer was never referred. */
  | { kind: "no_code" }
  | { kind: "self_referral"; text: string }
  | { kind: "referrer_inactive"; text: string }
  /** Nothing better to say: the merchant has to look. */
  | { kind: "other"; text: string };

const UNKNOWN = /\b(short_code|coupon_code)\s+(.+?)\s+(?:does not exist|is not valid|is invalid|was not found)/i;

export function classifyRefusal(errors: string[]): Refusal {
  const text = errors.join(" ");
  for (const error of errors) {
    const unknown = UNKNOWN.exec(error);
    if (unknown) {
      const code = unknown[2]!;
      return unknown[1]!.toLowerCase() === "short_code" ? { kind: "unknown_short_code", code } : { kind: "unknown_coupon", code };
    }
  }
  if (errors.some((e) => /refer (?:themselves|himself|herself|yourself)|self[- ]?referr?al/i.test(e))) return { kind: "self_referral", text };
  if (errors.some((e) => /referr(?:ing|er).*(?:deactivated|banned|inactive|cannot earn)/i.test(e))) return { kind: "referrer_inactive", text };
  if (errors.some((e) => /required/i.test(e) && /short_code|coupon_code/i.test(e))) return { kind: "no_code" };
  return { kind: "other", text };
}
