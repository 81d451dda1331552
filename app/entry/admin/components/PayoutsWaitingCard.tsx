import { Badge, BlockStack, Box, Button, Card, InlineStack, Text, type BadgeProps } from "@shopify/polaris";
import type { HeldPayout } from "../../../domains/service-events/payout-credits.server";
import { formatDateTime } from "./format";

const HOLDS: Record<HeldPayout["state"], { label: string; tone: BadgeProps["tone"] }> = {
  awaiting_approval: { label: "Above your ceiling", tone: "attention" },
  wrong_currency: { label: "Another currency", tone: "warning" },
  unverified_email: { label: "Email not verified", tone: "warning" },
  needs_review: { label: "Credit unclear", tone: "critical" },
};

export type PayoutAnswer = "approvePayout" | "recheckPayout" | "closePayout";

/** The store credit payouts the app did not credit on its own: each says why, and what the merchant can do. */
export function PayoutsWaitingCard({
  payouts,
  onAnswer,
  pending,
}: {
  payouts: HeldPayout[];
  onAnswer(id: string, answer: PayoutAnswer): void;
  /** The answer being sent, to show its button busy. */
  pending?: { id: string; answer: PayoutAnswer } | null;
}) {
  const busy = (id: string, answer: PayoutAnswer) => pending?.id === id && pending.answer === answer;
  return (
    <Card>
      <BlockStack gap="400">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            Payouts waiting for you
          </Text>
          <Text as="p" tone="subdued">
            These store credit payouts wait for your decision; each says why. Nothing happens to them until you choose.
          </Text>
        </BlockStack>
        {payouts.map((payout) => (
          <Box key={payout.id} borderBlockStartWidth="025" borderColor="border" paddingBlockStart="300">
            <BlockStack gap="200">
              <InlineStack gap="200" blockAlign="center">
                <Text as="span" fontWeight="semibold">
                  {payout.amount} {payout.currency ?? ""}
                </Text>
                <Text as="span">to {payout.email}</Text>
                <Badge tone={HOLDS[payout.state].tone}>{HOLDS[payout.state].label}</Badge>
                <Text as="span" tone="subdued" variant="bodySm">
                  Payout {payout.payoutId}, {formatDateTime(payout.createdAt)}
                </Text>
              </InlineStack>
              {payout.reason ? (
                <Text as="p" breakWord>
                  {payout.reason}
                </Text>
              ) : null}
              <InlineStack gap="200">
                {payout.state === "awaiting_approval" ? (
                  <Button variant="primary" loading={busy(payout.id, "approvePayout")} onClick={() => onAnswer(payout.id, "approvePayout")}>
                    Approve and credit
                  </Button>
                ) : (
                  <Button loading={busy(payout.id, "recheckPayout")} onClick={() => onAnswer(payout.id, "recheckPayout")}>
                    Check again
                  </Button>
                )}
                <Button variant="plain" tone="critical" loading={busy(payout.id, "closePayout")} onClick={() => onAnswer(payout.id, "closePayout")}>
                  Close without crediting
                </Button>
              </InlineStack>
            </BlockStack>
          </Box>
        ))}
      </BlockStack>
    </Card>
  );
}
