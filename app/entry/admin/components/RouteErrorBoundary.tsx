import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { Banner, Layout, Link, Page, Text } from "@shopify/polaris";
import { boundary } from "@shopify/shopify-app-remix/server";
import type { SupportContact } from "../support-contact";
import { useSupportContact } from "./SupportFooter";

/**
 * A page's own error boundary: Shopify's auth responses still go to its
 * boundary (they carry the bounce page), anything else is shown as a banner
 * inside the app instead of a blank frame.
 */
export function RouteErrorBoundary({ title }: { title: string }) {
  const error = useRouteError();
  const contact = useSupportContact();
  if (isRouteErrorResponse(error)) return boundary.error(error);
  return <PageLoadError title={title} contact={contact} />;
}

/** What a page that failed shows: a way to retry, and whom to tell when it keeps failing. */
export function PageLoadError({ title, contact }: { title: string; contact: SupportContact | undefined }) {
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
              Something went wrong on our side. Reload the page; if it keeps happening, contact the app's support
              {contact ? (
                <>
                  {" at "}
                  <Link url={contact.href} target={contact.href.startsWith("mailto:") ? "_top" : "_blank"}>
                    {contact.label}
                  </Link>
                </>
              ) : null}
              .
            </Text>
          </Banner>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
