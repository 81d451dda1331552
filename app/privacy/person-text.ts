// Finding one person in stored text, whatever the letter case (in Unicode),
// and taking them out of it.

export const REDACTED = "[redacted]";

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
  return text.normalize("NFC").replace(pattern, REDACTED);
}

/**
 * A LIKE pattern that finds every row that may mention `needle` when compared
 * with lower(column): ASCII letters lower case, any other character a single
 * wildcard (databases fold only ASCII reliably), LIKE's own marks escaped with
 * "\". The app then checks each candidate with `mentions`.
 */
export function likeCandidate(needle: string): string {
  let out = "";
  for (const char of needle.normalize("NFC").toLowerCase()) {
    if (char === "%" || char === "_" || char === "\\") out += `\\${char}`;
    else out += char.charCodeAt(0) < 128 ? char : "_";
  }
  return `%${out}%`;
}
