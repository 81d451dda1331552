import { BlockStack, SkeletonBodyText, Text } from "@shopify/polaris";
import { lazy, Suspense, useEffect, useState } from "react";
import type { DailyPoint } from "../dashboard.server";

// The charts render in the browser only: polaris-viz sizes itself from the DOM.
const Charts = lazy(() => import("./ReferralsChart.client"));

function ChartPlaceholder() {
  return (
    <BlockStack gap="500">
      {["Orders per day", "Revenue per day"].map((title) => (
        <BlockStack gap="200" key={title}>
          <Text as="h3" variant="headingSm">
            {title}
          </Text>
          <div style={{ height: 200, display: "flex", alignItems: "flex-end" }} aria-busy="true" aria-label={`${title}: loading`}>
            <div style={{ width: "100%" }}>
              <SkeletonBodyText lines={6} />
            </div>
          </div>
        </BlockStack>
      ))}
    </BlockStack>
  );
}

export function ReferralsChart({ points, currency }: { points: DailyPoint[]; currency: string | null }) {
  const [inBrowser, setInBrowser] = useState(false);
  useEffect(() => setInBrowser(true), []);
  if (!inBrowser) return <ChartPlaceholder />;
  return (
    <Suspense fallback={<ChartPlaceholder />}>
      <Charts points={points} currency={currency} />
    </Suspense>
  );
}
