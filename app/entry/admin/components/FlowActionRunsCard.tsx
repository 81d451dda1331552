import { Badge, Box, Card, DataTable, Text, type BadgeProps } from "@shopify/polaris";
import type { FlowActionRunRow } from "../../../domains/flow-actions/runs.server";
import { formatDateTime } from "./format";

const STATE_BADGE: Record<FlowActionRunRow["state"], { tone: BadgeProps["tone"]; label: string }> = {
  queued: { tone: "info", label: "Queued" },
  done: { tone: "success", label: "Done" },
  failed: { tone: "critical", label: "Failed" },
};

/** What Shopify Flow asked of the app (its actions) and how each run went. */
export function FlowActionRunsCard({ runs }: { runs: FlowActionRunRow[] }) {
  return (
    <Card padding="0">
      <Box padding="400">
        <Text as="h2" variant="headingMd">
          Shopify Flow actions
        </Text>
      </Box>
      {runs.length === 0 ? (
        <Box padding="400" paddingBlockStart="0">
          <Text as="p" tone="subdued">
            No Flow actions yet. When a workflow in Shopify Flow enrols a customer or approves or denies a commission through this app, each run shows here.
          </Text>
        </Box>
      ) : (
        <DataTable
          columnContentTypes={["text", "text", "text", "text"]}
          headings={["Flow asked", "Received", "State", "What happened"]}
          rows={runs.map((run) => [
            run.request,
            formatDateTime(run.receivedAt),
            <Badge key={run.id} tone={STATE_BADGE[run.state].tone}>
              {STATE_BADGE[run.state].label}
            </Badge>,
            run.detail ?? "",
          ])}
          verticalAlign="middle"
        />
      )}
    </Card>
  );
}
