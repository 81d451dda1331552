import { Banner, BlockStack, Link, List, Text } from "@shopify/polaris";
import type { MerchantError } from "../merchant-error";

/** One thing on a page that needs the merchant, with the way to fix it. */
export interface AttentionItem {
  id: string;
  tone: "critical" | "warning";
  title: string;
  message: string;
  /** The service's own words, when it gave any. */
  details?: string[];
  action?: { content: string; url: string };
}

/** A service problem (ServiceErrorBanner's) as an item; a problem that may pass by itself is a warning. */
export function serviceErrorItem(error: MerchantError, id = "service"): AttentionItem {
  return { id, tone: error.retryable ? "warning" : "critical", title: error.title, message: error.message, details: error.details, action: error.action };
}

/**
 * One banner, however many things need attention: the most urgent (the first
 * critical one, else the first), with the others listed under it by title and
 * their own way to fix them. Items come most urgent first within a tone.
 */
export function AttentionBanner({ items, href = (url) => url }: { items: AttentionItem[]; href?: (url: string) => string }) {
  if (items.length === 0) return null;
  const ordered = [...items.filter((i) => i.tone === "critical"), ...items.filter((i) => i.tone !== "critical")];
  const [first, ...rest] = ordered as [AttentionItem, ...AttentionItem[]];
  return (
    <Banner title={first.title} tone={first.tone} action={first.action ? { content: first.action.content, url: href(first.action.url) } : undefined}>
      <BlockStack gap="200">
        <Text as="p">{first.message}</Text>
        {first.details && first.details.length > 0 ? (
          <BlockStack gap="100">
            <Text as="p" tone="subdued">
              The referral service said:
            </Text>
            <List type="bullet">
              {first.details.map((detail) => (
                <List.Item key={detail}>{detail}</List.Item>
              ))}
            </List>
          </BlockStack>
        ) : null}
        {rest.length > 0 ? (
          <BlockStack gap="100">
            <Text as="p" fontWeight="medium">
              {rest.length === 1 ? "Also needs your attention:" : `Also needing your attention (${rest.length}):`}
            </Text>
            <List type="bullet">
              {rest.map((item) => (
                <List.Item key={item.id}>
                  {item.title}
                  {item.action ? (
                    <>
                      {" "}
                      <Link url={href(item.action.url)}>{item.action.content}</Link>
                    </>
                  ) : null}
                </List.Item>
              ))}
            </List>
          </BlockStack>
        ) : null}
      </BlockStack>
    </Banner>
  );
}
