import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";

/** Shopify's App Bridge (the same address @shopify/shopify-app-remix's AppProvider uses). */
const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

/**
 * The browser paints nothing before this element, the last of the page's
 * markup, is parsed (`<link rel="expect" blocking="render">`). Otherwise a
 * page that arrives in pieces, on a slow network or from a busy server, is
 * painted half-parsed, and a table whose later rows hold wider content
 * re-spaces its columns when they arrive: a layout shift on every list page.
 * Browsers without render-blocking by `expect` paint as before.
 */
const PAGE_END_ID = "rb-page-end";

export default function App() {
  // Embedded admin pages (under routes/app) load App Bridge as the first
  // script of <head>, before anything render-blocking, as Shopify requires:
  // the admin shows the app only once App Bridge runs. routes/app tells
  // AppProvider not to add the script again.
  const embedded = useRouteLoaderData<{ apiKey: string }>("routes/app");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        {/* No icon: without this line every browser asks for /favicon.ico, which the app does not serve. */}
        <link rel="icon" href="data:," />
        {embedded ? (
          <>
            <meta name="shopify-api-key" content={embedded.apiKey} />
            <script src={APP_BRIDGE_URL} />
          </>
        ) : null}
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <link rel="expect" href={`#${PAGE_END_ID}`} blocking="render" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <div id={PAGE_END_ID} hidden />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/**
 * What a visitor sees when no route below answers for itself: a short page
 * that names no file, module or stack. Remix's own page would also write the
 * error to stderr from the browser's and the server's render alike; the
 * server's failures are logged once by handleError (entry.server.tsx).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{`${notFound ? "Page not found" : "Something went wrong"} · Referral Bridge`}</title>
      </head>
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "3rem auto", maxWidth: "32rem", padding: "0 1rem" }}>
        <h1>{notFound ? "Page not found" : "Something went wrong"}</h1>
        <p>
          {notFound
            ? "There is no page at this address. Open Referral Bridge from the Apps section of your Shopify admin."
            : "Referral Bridge could not answer this request. Try again in a minute; if it keeps happening, contact the app's support."}
        </p>
        <Scripts />
      </body>
    </html>
  );
}
