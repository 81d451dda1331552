import { LineChart, PolarisVizProvider } from "@shopify/polaris-viz";
import { BlockStack, Text } from "@shopify/polaris";
import type { DailyPoint } from "../dashboard.server";
import { formatAmount, formatDay } from "./format";

const ORDERS_COLOR = "rgba(0, 91, 211, 1)";
const REVENUE_COLOR = "rgba(41, 132, 90, 1)";
// Straight segments: a day with no order is a real zero, not something to smooth over.
const THEMES = { Light: { line: { hasSpline: false } } };

/** polaris-viz measures the browser, so this module only ever runs there (see ReferralsChart.tsx). */
export default function ReferralsCharts({ points, currency }: { points: DailyPoint[]; currency: string | null }) {
  const key = (p: DailyPoint) => formatDay(p.date);
  const orders = [{ name: "Referred orders", color: ORDERS_COLOR, data: points.map((p) => ({ key: key(p), value: p.orders })) }];
  const revenue = [
    { name: "Referred revenue", color: REVENUE_COLOR, data: points.map((p) => ({ key: key(p), value: Number(p.revenue) })) },
  ];
  return (
    <PolarisVizProvider themes={THEMES}>
      <BlockStack gap="500">
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Orders per day
          </Text>
          <div style={{ height: 200 }} role="img" aria-label="Referred orders per day over the last 30 days">
            <LineChart data={orders} theme="Light" isAnimated={false} showLegend={false} yAxisOptions={{ integersOnly: true }} />
          </div>
        </BlockStack>
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Revenue per day
          </Text>
          <div style={{ height: 200 }} role="img" aria-label="Referred revenue per day over the last 30 days">
            <LineChart
              data={revenue}
              theme="Light"
              isAnimated={false}
              showLegend={false}
              yAxisOptions={{ labelFormatter: (v) => formatAmount(String(v ?? 0), currency).replace(/\.00$/, "") }}
            />
          </div>
        </BlockStack>
      </BlockStack>
    </PolarisVizProvider>
  );
}
