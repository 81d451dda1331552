import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import polarisVizStyles from "@shopify/polaris-viz/build/esm/styles.css";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import adminStyles from "../entry/admin/components/admin.css";
import { supportContact } from "../entry/admin/support-contact";
import { LeaveConfirmation } from "../entry/admin/components/ContextualSaveBar";
import { NavigationProgress } from "../entry/admin/components/NavigationProgress";
import { SupportFooter } from "../entry/admin/components/SupportFooter";
import { getEnv } from "../wiring/env.server";
import { authenticate } from "../wiring/shopify.server";

export const links = () => [
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: polarisVizStyles },
  { rel: "stylesheet", href: adminStyles },
];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  const env = getEnv();
  return { apiKey: process.env.SHOPIFY_API_KEY || "", support: supportContact(env.SUPPORT_CONTACT, env.SHOPIFY_APP_URL) };
};

export default function App() {
  const { apiKey } = useLoaderData<typeof loader>();
  return (
    // isEmbeddedApp={false} only stops AppProvider adding App Bridge's script
    // at the top of <body>: root.tsx loads it first in <head>, as Shopify requires.
    <AppProvider isEmbeddedApp={false} apiKey={apiKey}>
      <NavMenu>
        <Link to="/app" rel="home">
          Home
        </Link>
        <Link to="/app/commissions">Commissions</Link>
        <Link to="/app/ambassadors">Ambassadors</Link>
        <Link to="/app/campaigns">Campaigns</Link>
        <Link to="/app/activity">Activity</Link>
        <Link to="/app/events">Service events</Link>
        <Link to="/app/data-requests">Data requests</Link>
        <Link to="/app/settings">Settings</Link>
      </NavMenu>
      <NavigationProgress />
      <LeaveConfirmation>
        <Outlet />
      </LeaveConfirmation>
      <SupportFooter />
    </AppProvider>
  );
}

// Shopify's boundary keeps the headers of auth redirects and bounce pages.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
