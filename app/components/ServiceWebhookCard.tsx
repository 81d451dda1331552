import { BlockStack, Button, Card, InlineStack, Text, TextField } from "@shopify/polaris";
import { useCallback, useState } from "react";

/**
 * Where the referral service sends its webhooks for this shop, and the secret
 * it signs them with. The merchant pastes both into the service's webhook
 * settings. The secret belongs to the shop; it is shown here on purpose and
 * hidden until asked for.
 */
export function ServiceWebhookCard({ url, secret }: { url: string; secret: string }) {
  const [revealed, setRevealed] = useState(false);
  const [copied, setCopied] = useState<"url" | "secret" | null>(null);

  const copy = useCallback(async (what: "url" | "secret", text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
    } catch {
      // No clipboard access (permissions): the field can still be selected by hand.
      setCopied(null);
    }
  }, []);

  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Webhooks from the referral service
        </Text>
        <Text as="p" tone="subdued">
          In the referral service&apos;s webhook settings, add a webhook with this URL and secret. The app then shows the
          service&apos;s events and acts on commissions, payouts and new ambassadors.
        </Text>
        <TextField
          label="Receiving URL"
          value={url}
          readOnly
          autoComplete="off"
          connectedRight={<Button onClick={() => copy("url", url)}>{copied === "url" ? "Copied" : "Copy"}</Button>}
        />
        <TextField
          label="Secret"
          value={revealed ? secret : "•".repeat(24)}
          readOnly
          autoComplete="off"
          monospaced
          helpText="Keep it private: anyone with it can send events in your shop's name."
          connectedRight={
            <InlineStack gap="100" wrap={false}>
              <Button onClick={() => setRevealed((shown) => !shown)}>{revealed ? "Hide" : "Show"}</Button>
              <Button onClick={() => copy("secret", secret)}>{copied === "secret" ? "Copied" : "Copy"}</Button>
            </InlineStack>
          }
        />
      </BlockStack>
    </Card>
  );
}
