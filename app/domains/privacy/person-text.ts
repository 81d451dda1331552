// Finding one person in stored text, whatever the letter case (in Unicode),
// and taking them out of it.

/** What stands where a person was taken out of stored text. */
export const REDACTION_MARK = "[redacted]";

const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/** What identifies the person in text: their email, and their Shopify customer id as a whole number. */
export interface PersonNeedles {
  email: string | null;
  customerId: string | null;
}

export function personPattern(needles: PersonNeedles): RegExp | null {
  const parts: string[] = [];
  if (needles.email) parts.push(escapeRegex(needles.email.normalize("NFC")));
  if (needles.customerId && /^\d+$/.test(needles.customerId)) parts.push(`(?<![0-9])${needles.customerId}(?![0-9])`);
  return parts.length > 0 ? new RegExp(parts.join("|"), "giu") : null;
}

export function mentions(text: string | null | undefined, pattern: RegExp): boolean {
  if (!text) return false;
  pattern.lastIndex = 0;
  const found = pattern.test(text.normalize("NFC"));
  pattern.lastIndex = 0;
  return found;
}

/** The text with every mention replaced; JSON stays JSON (the mark has no quote or backslash). */
export function scrub(text: string, pattern: RegExp): string {
  return text.normalize("NFC").replace(pattern, REDACTION_MARK);
}
