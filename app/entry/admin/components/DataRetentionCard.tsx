import { BlockStack, Card, Layout, Text } from "@shopify/polaris";
import type { RetentionPeriod } from "../../../domains/privacy/retention.server";

/**
 * How long the app keeps what it keeps (app/domains/privacy/retention.server.ts),
 * read-only, as a section of the Settings page: the retention purge applies
 * these periods every hour.
 */
export function DataRetentionCard({ periods }: { periods: RetentionPeriod[] }) {
  return (
    <section aria-label="Data retention">
      <Layout>
        <Layout.AnnotatedSection
          id="data-retention"
          title="Data retention"
          description="The app keeps your customers' data only as long as it needs it, and removes the rest every hour. These periods are the same for every shop."
        >
          <Card>
            <BlockStack gap="300">
              {periods.map((p) => (
                <BlockStack key={p.what} gap="050">
                  <Text as="h3" variant="headingSm">
                    {p.what}
                  </Text>
                  <Text as="p">
                    Kept {p.period}. {p.then}
                  </Text>
                </BlockStack>
              ))}
            </BlockStack>
          </Card>
        </Layout.AnnotatedSection>
      </Layout>
    </section>
  );
}
