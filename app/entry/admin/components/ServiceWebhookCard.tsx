import { useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, Checkbox, InlineStack, Modal, Text, TextField } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { ROTATE_SECRET_INTENT, type RotateSecretResult, type ServiceWebhookView } from "../service-webhook";
import { formatDateTime } from "./format";

/**
 * Where the referral service sends its webhooks for this shop, and its
 * secret. The secret is shown only in the answer that made it (the first
 * view, or a rotation), kept on screen while the page stays open, and never
 * sent to the browser again; "Rotate secret" makes a new one.
 */
export function ServiceWebhookCard({ webhook, rotation }: { webhook: ServiceWebhookView; rotation?: RotateSecretResult }) {
  const justMade = rotation?.ok ? rotation.webhook.newSecret : webhook.newSecret;
  const [secret, setSecret] = useState(justMade);
  useEffect(() => {
    if (justMade) setSecret(justMade);
  }, [justMade]);
  const [copied, setCopied] = useState<"url" | "secret" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [endCurrentNow, setEndCurrentNow] = useState(false);
  const submit = useSubmit();
  const navigation = useNavigation();
  const rotating = navigation.state !== "idle" && navigation.formData?.get("intent") === ROTATE_SECRET_INTENT;

  const copy = useCallback(async (what: "url" | "secret", text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
    } catch {
      // No clipboard access (permissions): the field can still be selected by hand.
      setCopied(null);
    }
  }, []);

  const closeConfirm = useCallback(() => {
    setConfirming(false);
    setEndCurrentNow(false);
  }, []);
  const rotate = () => {
    submit({ intent: ROTATE_SECRET_INTENT, endCurrentNow: String(endCurrentNow) }, { method: "post" });
    setCopied(null);
    closeConfirm();
  };

  const previousUntil = webhook.previousValidUntil ? formatDateTime(webhook.previousValidUntil) : null;
  const overlap = `${webhook.overlapHours} hours`;

  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Webhooks from the referral service
        </Text>
        <Text as="p" tone="subdued">
          In the referral service&apos;s webhook settings, add a webhook with this URL and the secret. The app then shows the
          service&apos;s events and acts on commissions, payouts and new ambassadors.
        </Text>
        <TextField
          label="Receiving URL"
          value={webhook.url}
          readOnly
          autoComplete="off"
          connectedRight={<Button onClick={() => copy("url", webhook.url)}>{copied === "url" ? "Copied" : "Copy"}</Button>}
        />

        {rotation && !rotation.ok ? <Banner tone="critical">{rotation.message}</Banner> : null}

        {webhook.secretUnreadable && !secret ? (
          <Banner tone="critical" title="The app can't read this secret any more">
            <Text as="p">
              The app&apos;s encryption key was changed, so the referral service&apos;s events are refused (it keeps sending them
              again). Rotate the secret and paste the new one into the referral service, or ask whoever runs the app to put the
              previous key back.
            </Text>
          </Banner>
        ) : null}

        {secret ? (
          <Banner tone="warning" title="Copy the secret now: it is shown only this once">
            <BlockStack gap="200">
              <Text as="p">
                Paste it into the referral service&apos;s webhook settings. Once you leave or reload this page it can&apos;t be
                shown again; you can always rotate it to get a new one.
                {previousUntil ? ` The previous secret keeps working until ${previousUntil}, so no event is refused meanwhile.` : ""}
              </Text>
              <TextField
                label="Secret"
                value={secret}
                readOnly
                autoComplete="off"
                monospaced
                helpText="Keep it private: anyone with it can send events in your shop's name."
                connectedRight={<Button onClick={() => copy("secret", secret)}>{copied === "secret" ? "Copied" : "Copy"}</Button>}
              />
              <Box>
                <Button onClick={() => setSecret(null)}>I&apos;ve saved it</Button>
              </Box>
            </BlockStack>
          </Banner>
        ) : (
          <BlockStack gap="100">
            <Text as="p">
              <Text as="span" fontWeight="semibold">
                Secret:
              </Text>{" "}
              {webhook.secretMadeAt ? `set, made ${formatDateTime(webhook.secretMadeAt)}.` : "set."} It is shown only when it is
              made. If you no longer have it, rotate it.
            </Text>
            {previousUntil ? (
              <Text as="p" tone="subdued">
                The previous secret also works until {previousUntil}; after that, only the current one.
              </Text>
            ) : null}
          </BlockStack>
        )}

        <InlineStack align="end">
          <Button onClick={() => setConfirming(true)} loading={rotating}>
            Rotate secret
          </Button>
        </InlineStack>
      </BlockStack>

      <Modal
        open={confirming}
        onClose={closeConfirm}
        title="Rotate the webhook secret?"
        primaryAction={{ content: "Rotate secret", destructive: true, onAction: rotate }}
        secondaryActions={[{ content: "Cancel", onAction: closeConfirm }]}
      >
        <Modal.Section>
          <BlockStack gap="300">
            <Text as="p">
              The app makes a new secret and shows it once, for you to paste into the referral service&apos;s webhook settings.
              {endCurrentNow
                ? " The current secret stops working at once."
                : ` The current secret keeps working for ${overlap}; after that, only the new one does.`}
              {previousUntil ? " The secret replaced before it stops working at once." : ""}
            </Text>
            <Checkbox
              label="Stop the current secret at once"
              helpText="Choose this if the secret may have leaked. Until you paste the new one, the service's events are refused, and the service tries each one only twice more, within 35 minutes."
              checked={endCurrentNow}
              onChange={setEndCurrentNow}
            />
          </BlockStack>
        </Modal.Section>
      </Modal>
    </Card>
  );
}
