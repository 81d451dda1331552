/**
 * An email as privacy requests compare it: trimmed, NFC and lower case in
 * Unicode (SQLite's lower() folds ASCII only, so the app folds it and stores
 * the result in OrderRecord.emailKey).
 */
export function emailKey(email: string | null | undefined): string | null {
  const key = email?.trim().normalize("NFC").toLowerCase();
  return key ? key : null;
}
