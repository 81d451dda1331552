/**
 * The share code in a campaign link's share URL. The interface gives the link
 * only as a URL; its code is the URL's last path segment (e.g. /s/ALICE10),
 * or the `mbsy` parameter of a landing-page style link.
 */
export function shareCodeOfLink(url: string | null | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const fromQuery = parsed.searchParams.get("mbsy")?.trim();
  if (fromQuery) return fromQuery;
  const last = parsed.pathname.split("/").filter(Boolean).pop();
  return last && /^[\w-]{2,64}$/.test(last) ? decodeURIComponent(last) : null;
}
