import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { Banner, Layout, Page, Text } from "@shopify/polaris";
import { boundary } from "@shopify/shopify-app-remix/server";

/**
 * A page's own error boundary: Shopify's auth responses still go to its
 * boundary (they carry the bounce page), anything else is shown as a banner
 * inside the app instead of a blank frame.
 */
export function RouteErrorBoundary({ title }: { title: string }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) return boundary.error(error);
  return (
    <Page title={title}>
      <Layout>
        <Layout.Section>
          <Banner
            title="This page couldn't be loaded"
            tone="critical"
            action={{ content: "Reload", onAction: () => window.location.reload() }}
          >
            <Text as="p">
              Something went wrong on our side. Reload the page; if it keeps happening, contact the app's support.
            </Text>
          </Banner>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
