/** The entries of a comma-separated list as the app stores them (campaign ids, tags, scopes): trimmed, empty ones dropped. */
export function commaList(text: string | null | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}
