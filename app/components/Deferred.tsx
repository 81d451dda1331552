import { Await } from "@remix-run/react";
import { Banner, BlockStack, Box, Card, SkeletonBodyText, SkeletonDisplayText, Text } from "@shopify/polaris";
import { Suspense, type ReactNode } from "react";

/**
 * A part of a page that streams in after the page has painted (Remix's
 * `defer`): `fallback` (a skeleton) until it comes, then `children` of it.
 * A stream cut short, or an unexpected server error in it, says so in place;
 * the rest of the page keeps working.
 */
export function Deferred<T>({
  resolve,
  fallback,
  children,
}: {
  resolve: Promise<T>;
  fallback: ReactNode;
  children: (value: Awaited<T>) => ReactNode;
}) {
  return (
    <Suspense fallback={fallback}>
      <Await resolve={resolve} errorElement={<StreamFailed />}>
        {(value) => children(value as Awaited<T>)}
      </Await>
    </Suspense>
  );
}

function StreamFailed() {
  return (
    <Banner
      title="Part of this page couldn't be loaded"
      tone="warning"
      action={{ content: "Reload", onAction: () => window.location.reload() }}
    >
      <Text as="p">The referral program's data didn't arrive. Reload the page; if it keeps happening, try again in a few minutes.</Text>
    </Banner>
  );
}

/** Says to assistive technology what is on its way, while the skeleton shows it to the eye. */
function Loading({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div aria-busy="true" aria-label={label} role="status">
      {children}
    </div>
  );
}

/** A card's worth of text on its way: a heading and `lines` of body. */
export function CardSkeleton({ label, lines = 3, heading = true }: { label: string; lines?: number; heading?: boolean }) {
  return (
    <Loading label={label}>
      <Card>
        <BlockStack gap="400">
          {heading ? <SkeletonDisplayText size="small" /> : null}
          <SkeletonBodyText lines={lines} />
        </BlockStack>
      </Card>
    </Loading>
  );
}

/** A MetricCard whose figure is on its way: its label at once, the figure and caption as skeletons of their height. */
export function MetricSkeleton({ label }: { label: string }) {
  return (
    <Loading label={`Loading ${label.toLowerCase()}`}>
      <Card>
        <BlockStack gap="100">
          <Text as="h3" variant="bodySm" tone="subdued" fontWeight="medium">
            {label}
          </Text>
          <SkeletonDisplayText size="small" />
          <SkeletonBodyText lines={1} />
        </BlockStack>
      </Card>
    </Loading>
  );
}

/** A list's rows on its way, inside a card that is already drawn: `rows` rows about as tall as a table's. */
export function RowsSkeleton({ label, rows }: { label: string; rows: number }) {
  return (
    <Loading label={label}>
      <Box padding="400">
        <BlockStack gap="500">
          {Array.from({ length: rows }, (_, i) => (
            <SkeletonBodyText key={i} lines={2} />
          ))}
        </BlockStack>
      </Box>
    </Loading>
  );
}
