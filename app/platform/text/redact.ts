/**
 * The v2 interface carries its token as a URL path segment, so any text that may
 * contain a service URL goes through here before it is logged or thrown.
 */

const PLAIN = /(\/api\/v2\/[^/\s?#"'<>]+\/)([^/\s?#"'<>]+)/gi;
const PERCENT_ENCODED = /(%2Fapi%2Fv2%2F(?:(?!%2F)[^\s&"'<>/])+%2F)((?:(?!%2F)[^\s&"'<>/?#])+)/gi;

export const REDACTED = "[REDACTED]";
const MIN_LITERAL_SECRET = 6;

/** Replaces the token segment of every `/api/v2/<username>/<token>/` in the text with `[REDACTED]`. */
export function redactServiceUrl(text: string): string {
  return text.replace(PLAIN, `$1${REDACTED}`).replace(PERCENT_ENCODED, `$1${REDACTED}`);
}

/**
 * Redacts service URLs and every literal occurrence of the given secrets (raw
 * and URL-encoded). Secrets shorter than 6 characters are only caught inside
 * service URLs: replacing every "t" of a text would ruin it and hide nothing.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = redactServiceUrl(text);
  for (const secret of secrets) {
    if (secret.length < MIN_LITERAL_SECRET) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      result = result.split(form).join(REDACTED);
    }
  }
  return result;
}
