import { Banner, BlockStack, List, Text } from "@shopify/polaris";
import type { MerchantError } from "../merchant-error";
import { useEmbeddedHref } from "./embedded-url";

/** A service problem in words the merchant can act on, with the way to fix it. */
export function ServiceErrorBanner({ error, onDismiss }: { error: MerchantError; onDismiss?: () => void }) {
  const href = useEmbeddedHref();
  return (
    <Banner
      title={error.title}
      tone={error.retryable ? "warning" : "critical"}
      action={error.action ? { content: error.action.content, url: href(error.action.url) } : undefined}
      onDismiss={onDismiss}
    >
      <BlockStack gap="200">
        <Text as="p">{error.message}</Text>
        {error.details && error.details.length > 0 ? (
          <BlockStack gap="100">
            <Text as="p" tone="subdued">
              The referral service said:
            </Text>
            <List type="bullet">
              {error.details.map((detail) => (
                <List.Item key={detail}>{detail}</List.Item>
              ))}
            </List>
          </BlockStack>
        ) : null}
      </BlockStack>
    </Banner>
  );
}
