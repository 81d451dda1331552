import { InlineStack, Pagination, Text } from "@shopify/polaris";

/** Previous / next links between pages of a list; `hrefOf(page)` keeps the filters. */
export function PagingBar({
  page,
  hasMore,
  hrefOf,
  label,
}: {
  page: number;
  hasMore: boolean;
  hrefOf: (page: number) => string;
  label?: string;
}) {
  if (page <= 1 && !hasMore) return null;
  return (
    <InlineStack align="center" blockAlign="center" gap="300">
      <Pagination
        hasPrevious={page > 1}
        previousURL={page > 1 ? hrefOf(page - 1) : undefined}
        previousTooltip="Previous page"
        hasNext={hasMore}
        nextURL={hasMore ? hrefOf(page + 1) : undefined}
        nextTooltip="Next page"
        label={<Text as="span">{label ?? `Page ${page}`}</Text>}
      />
    </InlineStack>
  );
}
