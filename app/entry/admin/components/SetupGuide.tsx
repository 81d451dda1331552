import { BlockStack, Box, Button, Card, InlineStack, ProgressBar, Text } from "@shopify/polaris";
import { useEmbeddedHref } from "./embedded-url";

export interface SetupStep {
  id: string;
  title: string;
  description: string;
  done: boolean;
  /** The program works without it; the guide goes away without it. */
  optional?: boolean;
  /** What the app found when it checked this step through Shopify, shown with it. */
  status?: string;
  action?: { content: string; url: string; external?: boolean };
}

function StepMarker({ done, index }: { done: boolean; index: number }) {
  if (done) {
    return (
      <svg width="20" height="20" viewBox="0 0 20 20" role="img" aria-label="Done">
        <circle cx="10" cy="10" r="10" fill="var(--p-color-bg-fill-success, #29845a)" />
        <path d="M6 10.2l2.6 2.6L14 7.4" stroke="#fff" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  }
  return (
    <span
      role="img"
      aria-label="To do"
      style={{
        display: "inline-flex",
        width: 20,
        height: 20,
        borderRadius: "50%",
        border: "1.5px dashed var(--p-color-border-secondary, #8a8a8a)",
        alignItems: "center",
        justifyContent: "center",
        fontSize: 11,
        color: "var(--p-color-text-secondary)",
      }}
    >
      {index + 1}
    </span>
  );
}

/** From install to a tracked program, step by step. */
export function SetupGuide({ steps, uncheckable, onDismiss }: { steps: SetupStep[]; uncheckable?: string[]; onDismiss?: () => void }) {
  const href = useEmbeddedHref();
  const done = steps.filter((s) => s.done).length;
  const next = steps.find((s) => !s.done);
  return (
    <Card>
      <BlockStack gap="400">
        <BlockStack gap="200">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              Set up your referral program
            </Text>
            {onDismiss ? (
              <Button variant="plain" onClick={onDismiss} accessibilityLabel="Hide the setup guide">
                Hide
              </Button>
            ) : null}
          </InlineStack>
          <InlineStack gap="300" blockAlign="center" wrap={false}>
            <Text as="span" variant="bodySm" tone="subdued">
              {done} of {steps.length} steps done
            </Text>
            <div style={{ flex: 1, maxWidth: 200 }}>
              <ProgressBar progress={(done / steps.length) * 100} size="small" tone="primary" />
            </div>
          </InlineStack>
        </BlockStack>
        <BlockStack gap="300" as="ol">
          {steps.map((step, index) => (
            <Box
              as="li"
              key={step.id}
              padding="300"
              borderRadius="200"
              background={step === next ? "bg-surface-secondary" : undefined}
            >
              <InlineStack gap="300" blockAlign="start" wrap={false}>
                <StepMarker done={step.done} index={index} />
                <BlockStack gap="200">
                  <Text as="h3" variant="headingSm" tone={step.done ? "subdued" : undefined}>
                    {step.title}
                    {step.optional ? (
                      <Text as="span" variant="bodySm" tone="subdued">
                        {" "}
                        (optional)
                      </Text>
                    ) : null}
                  </Text>
                  {step.status ? (
                    <Text as="p" variant="bodySm" tone="subdued">
                      {step.status}
                    </Text>
                  ) : null}
                  {step === next ? (
                    <>
                      <Text as="p" tone="subdued">
                        {step.description}
                      </Text>
                      {step.action ? (
                        <InlineStack>
                          <Button
                            variant="primary"
                            url={step.action.external ? step.action.url : href(step.action.url)}
                            target={step.action.external ? "_top" : undefined}
                          >
                            {step.action.content}
                          </Button>
                        </InlineStack>
                      ) : null}
                    </>
                  ) : null}
                </BlockStack>
              </InlineStack>
            </Box>
          ))}
        </BlockStack>
        {uncheckable?.length ? (
          <BlockStack gap="100">
            <Text as="p" variant="bodySm" tone="subdued">
              What the app can't check through Shopify:
            </Text>
            <BlockStack gap="050" as="ul">
              {uncheckable.map((item) => (
                <Text key={item} as="span" variant="bodySm" tone="subdued">
                  • {item}
                </Text>
              ))}
            </BlockStack>
          </BlockStack>
        ) : null}
      </BlockStack>
    </Card>
  );
}
