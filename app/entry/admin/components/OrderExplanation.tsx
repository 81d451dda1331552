import { Badge, BlockStack, InlineStack, Text } from "@shopify/polaris";
import type { Explanation } from "../../../domains/referrals/explanation";
import { SIGNAL_NAMES } from "../../../domains/referrals/explanation";

const VERDICT: Record<string, [string, "success" | "attention" | "warning" | undefined]> = {
  passed: ["Passed", "success"],
  flagged: ["Flagged", "attention"],
  blocked: ["Blocked", "warning"],
  off: ["Off", undefined],
  not_checked: ["Not checked", undefined],
};

/** "Why was this order credited (or not)": the signals, the winner and each guard rule's verdict. */
export function OrderExplanation({ explanation, orderName }: { explanation: Explanation; orderName: string }) {
  return (
    <details className="rb-explanation">
      <summary aria-label={`Why order ${orderName} was decided this way`}>Why?</summary>
      <BlockStack gap="200">
        <Text as="p" variant="bodySm" fontWeight="semibold">
          {explanation.decision}
        </Text>
        <BlockStack gap="100">
          <Text as="h3" variant="bodySm" fontWeight="medium">
            Signals on the order
          </Text>
          {explanation.signals.length === 0 ? (
            <Text as="p" variant="bodySm" tone="subdued">
              No referral link or discount code.
            </Text>
          ) : (
            explanation.signals.map((signal, i) => (
              <Text as="p" variant="bodySm" key={i} tone={signal.won ? undefined : "subdued"}>
                {signal.won ? "✓ " : "· "}
                {SIGNAL_NAMES[signal.source]} <b>{signal.code}</b>: {signal.outcome}
              </Text>
            ))
          )}
          {explanation.winner ? (
            <Text as="p" variant="bodySm">
              Won: {explanation.winner.code}. {explanation.winner.why}.
            </Text>
          ) : null}
        </BlockStack>
        {explanation.guard.length > 0 ? (
          <BlockStack gap="100">
            <Text as="h3" variant="bodySm" fontWeight="medium">
              Referral guard
            </Text>
            {explanation.guard.map((verdict) => {
              const [label, tone] = VERDICT[verdict.verdict] ?? [verdict.verdict, undefined];
              return (
                <InlineStack gap="100" blockAlign="center" key={verdict.rule} wrap={false}>
                  <Badge size="small" tone={tone}>
                    {label}
                  </Badge>
                  <Text as="span" variant="bodySm">
                    {verdict.label}
                    {verdict.detail ? ` (${verdict.detail})` : ""}
                  </Text>
                </InlineStack>
              );
            })}
          </BlockStack>
        ) : null}
      </BlockStack>
    </details>
  );
}
