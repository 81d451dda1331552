import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "@remix-run/react";

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
