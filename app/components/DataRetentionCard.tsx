import { BlockStack, Card, Text } from "@shopify/polaris";
import type { RetentionPeriod } from "../privacy/retention.server";

/** How long the app keeps what it keeps (app/privacy/retention.server.ts), read-only: the retention purge applies it every hour. */
export function DataRetentionCard({ periods }: { periods: RetentionPeriod[] }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Data retention
        </Text>
        <Text as="p" tone="subdued">
          The app keeps your customers' data only as long as it needs it, and removes the rest every hour.
        </Text>
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
  );
}
