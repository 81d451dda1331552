// Development only (SHOPIFY_ADMIN_API_ORIGIN): the requests Shopify's library
// makes to a shop's admin (https://<shop>/admin/api/... and the token endpoint
// https://<shop>/admin/oauth/access_token) go to a local stand-in instead, the
// shop named in X-Forwarded-Host. Every other request is left as it was.

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** `origin` is read on each request: a test may point a running process at its stand-in. */
export function fetchAtAdminOrigin(origin: () => string | undefined, fetchImpl: Fetch = fetch): Fetch {
  return (input, init) => {
    const standIn = origin();
    // The library calls with a URL string and its init; a Request is not the library's and passes as it is.
    if (!standIn || input instanceof Request) return fetchImpl(input, init);
    const url = new URL(input);
    if (url.protocol !== "https:" || !url.pathname.startsWith("/admin/")) return fetchImpl(input, init);
    const headers = new Headers(init?.headers);
    headers.set("X-Forwarded-Host", url.host);
    return fetchImpl(new URL(`${url.pathname}${url.search}`, standIn), { ...init, headers });
  };
}
