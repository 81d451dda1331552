import { BlockStack, Card, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

/** One figure with its label and a short caption. */
export function MetricCard({ label, value, caption }: { label: string; value: ReactNode; caption?: ReactNode }) {
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="h3" variant="bodySm" tone="subdued" fontWeight="medium">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {value}
        </Text>
        {caption ? (
          <Text as="p" variant="bodySm" tone="subdued">
            {caption}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}
