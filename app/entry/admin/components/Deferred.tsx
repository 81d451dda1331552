import { Await } from "@remix-run/react";
import { Banner, BlockStack, Box, Card, SkeletonBodyText, SkeletonDisplayText, Text } from "@shopify/polaris";
import { Suspense, useEffect, useState, type ReactNode } from "react";

/**
 * A part of a page that may come after the page has painted (Remix's
 * `defer`): `children` of the value when the loader had it, else `fallback`
 * (a skeleton) until the streamed value comes. A stream cut short, or an
 * unexpected server error in it, says so in place; the rest of the page
 * keeps working.
 *
 * The value is awaited only once the page has hydrated. A Suspense boundary
 * still waiting for its streamed HTML while the page hydrates switches to
 * client rendering, with an error, as soon as a context above it changes,
 * and Polaris' AppProvider changes its own on mount (and its media query on
 * a narrow screen). The server renders the fallback; the value reaches the
 * browser as Remix's streamed data either way.
 */
export function Deferred<T>({
  resolve,
  fallback,
  children,
}: {
  resolve: T | Promise<T>;
  fallback: ReactNode;
  children: (value: T) => ReactNode;
}) {
  const hydrated = useHydrated();
  if (!(resolve instanceof Promise)) return <>{children(resolve)}</>;
  if (!hydrated) return <>{fallback}</>;
  return (
    <Suspense fallback={fallback}>
      <Await resolve={resolve} errorElement={<StreamFailed />}>
        {(value) => children(value as T)}
      </Await>
    </Suspense>
  );
}

let hydrating = true;

/** False while the server renders and the browser hydrates; true from then on (and at once on later pages). */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(() => !hydrating);
  useEffect(() => {
    hydrating = false;
    setHydrated(true);
  }, []);
  return hydrated;
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
