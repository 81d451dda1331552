import { Form, useNavigation } from "@remix-run/react";
import { BlockStack, Box, Button, InlineStack } from "@shopify/polaris";
import type { ReactNode } from "react";
import { EmbeddedParamsFields, useEmbeddedHref } from "./embedded-url";

/**
 * A GET form of list filters. Fields are plain named inputs, so the URL holds
 * the filters (shareable, and the back button works); the embedded parameters
 * ride along.
 */
export function FilterBar({
  children,
  clearTo,
  label,
  keep = {},
}: {
  children: ReactNode;
  clearTo: string;
  label: string;
  keep?: Record<string, string | undefined>;
}) {
  const navigation = useNavigation();
  const href = useEmbeddedHref();
  const loading = navigation.state === "loading" && navigation.location?.pathname === clearTo;
  return (
    <Form method="get" aria-label={label}>
      <EmbeddedParamsFields />
      {Object.entries(keep).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <Box padding="400" paddingBlockEnd="300">
        <BlockStack gap="300">
          {children}
          <InlineStack gap="200" align="end">
            <Button url={href(clearTo, keep)} variant="tertiary">
              Clear filters
            </Button>
            <Button submit loading={loading}>
              Apply filters
            </Button>
          </InlineStack>
        </BlockStack>
      </Box>
    </Form>
  );
}
