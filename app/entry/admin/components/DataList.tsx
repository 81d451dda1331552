import { BlockStack, Box, Divider, InlineStack, Text } from "@shopify/polaris";
import { Fragment, type ReactNode } from "react";

/** Label / value rows inside a card, e.g. counts per state. */
export function DataList({ items }: { items: { label: ReactNode; value: ReactNode; key?: string }[] }) {
  return (
    <BlockStack gap="200">
      {items.map((item, i) => (
        <Fragment key={item.key ?? String(i)}>
          {i > 0 ? <Divider /> : null}
          <Box paddingBlockStart={i > 0 ? "100" : "0"}>
            <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
              <Text as="span">{item.label}</Text>
              <Text as="span" fontWeight="semibold" alignment="end">
                {item.value}
              </Text>
            </InlineStack>
          </Box>
        </Fragment>
      ))}
    </BlockStack>
  );
}
