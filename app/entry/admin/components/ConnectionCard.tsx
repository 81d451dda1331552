import { Form, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, FormLayout, InlineStack, Modal, Text, TextField } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import type { ConnectionView } from "../connection.server";
import type { MerchantError } from "../merchant-error";
import { ContextualSaveBar } from "./ContextualSaveBar";
import { ServiceErrorBanner } from "./ServiceErrorBanner";
import { ConnectionBadge } from "./StatusBadges";
import { formatDateTime } from "./format";

export interface ConnectFeedback {
  ok: boolean;
  fieldErrors?: Partial<Record<"username" | "token" | "baseUrl", string>>;
  error?: MerchantError;
  companyName?: string;
  campaignCount?: number;
  resumedJobs?: number;
}

export interface DisconnectFeedback {
  ok: boolean;
  pausedJobs?: number;
  fieldErrors?: { form?: string };
}

/** The connect form: checked live by the action; the token is write-only. Disconnecting asks first. */
export function ConnectionCard({
  connection,
  feedback,
  disconnected,
}: {
  connection: ConnectionView;
  feedback?: ConnectFeedback;
  disconnected?: DisconnectFeedback;
}) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const connecting = navigation.state === "submitting" && navigation.formData?.get("intent") === "connect";
  const disconnecting = navigation.state !== "idle" && navigation.formData?.get("intent") === "disconnect";
  const [confirming, setConfirming] = useState(false);
  const canDisconnect = connection.status !== "not_connected" || connection.hasToken;
  const disconnect = () => {
    setConfirming(false);
    submit({ intent: "disconnect" }, { method: "post" });
  };
  const [baseUrl, setBaseUrl] = useState(connection.baseUrl ?? "");
  const [username, setUsername] = useState(connection.username ?? "");
  const [token, setToken] = useState("");
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (feedback?.ok) setToken("");
  }, [feedback]);
  // After a connect, a disconnect or a reload the fields show what is stored.
  useEffect(() => {
    setBaseUrl(connection.baseUrl ?? "");
    setUsername(connection.username ?? "");
  }, [connection.baseUrl, connection.username]);

  const errors = feedback?.ok === false ? feedback.fieldErrors ?? {} : {};
  // Changing saved credentials is a form like the others (App Bridge's save bar); the first connection is the card's button.
  const changed = baseUrl !== (connection.baseUrl ?? "") || username !== (connection.username ?? "") || token !== "";
  // The saved token is sent only to the address and username it was saved with (the action refuses otherwise).
  const savedTokenApplies =
    connection.hasToken && baseUrl.trim().replace(/\/+$/, "") === connection.baseUrl && username.trim() === connection.username;

  return (
    <Card>
      <Form method="post" aria-label="Referral service connection" ref={form}>
        {connection.status !== "not_connected" ? (
          <ContextualSaveBar
            id="connection-save-bar"
            dirty={changed}
            saving={connecting}
            onSave={() => form.current && submit(form.current)}
            onDiscard={() => {
              setBaseUrl(connection.baseUrl ?? "");
              setUsername(connection.username ?? "");
              setToken("");
            }}
          />
        ) : null}
        <input type="hidden" name="intent" value="connect" />
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <BlockStack gap="100">
              <Text as="h2" variant="headingMd">
                {connection.companyName ?? "Your referral program"}
              </Text>
              {connection.checkedAt ? (
                <Text as="p" variant="bodySm" tone="subdued">
                  Last checked {formatDateTime(connection.checkedAt)}
                </Text>
              ) : null}
            </BlockStack>
            <ConnectionBadge status={connection.status} />
          </InlineStack>

          {feedback?.ok ? (
            <Banner tone="success" title={`Connected to ${feedback.companyName}`}>
              <Text as="p">
                {feedback.campaignCount === 1
                  ? "1 active campaign found."
                  : `${feedback.campaignCount ?? 0} active campaigns found.`}{" "}
                {feedback.resumedJobs
                  ? `${feedback.resumedJobs} held orders are being sent now.`
                  : "Choose the campaigns to track below."}
              </Text>
            </Banner>
          ) : null}
          {feedback?.ok === false && feedback.error ? <ServiceErrorBanner error={feedback.error} /> : null}
          {disconnected?.ok && connection.status === "not_connected" ? (
            <Banner tone="info" title="Disconnected from the referral service">
              <Text as="p">
                The API token is deleted from the app. Orders and other work for the service wait
                {disconnected.pausedJobs ? ` (${disconnected.pausedJobs} now)` : ""} and are sent when you connect again.
              </Text>
            </Banner>
          ) : null}
          {disconnected?.ok === false && disconnected.fieldErrors?.form ? <Banner tone="warning" title={disconnected.fieldErrors.form} /> : null}
          {connection.status === "broken" && !feedback ? (
            <Banner tone="critical" title="The referral service refused the saved credentials">
              <Text as="p">{connection.error ?? "Enter the current username and token to start sending orders again."}</Text>
            </Banner>
          ) : null}

          <FormLayout>
            <TextField
              label="Base URL"
              name="baseUrl"
              value={baseUrl}
              onChange={setBaseUrl}
              autoComplete="url"
              inputMode="url"
              placeholder="https://api.example.com"
              helpText="The address of your referral service, without /api/v2/."
              error={errors.baseUrl}
              requiredIndicator
            />
            <FormLayout.Group>
              <TextField
                label="API username"
                name="username"
                value={username}
                onChange={setUsername}
                autoComplete="off"
                error={errors.username}
                requiredIndicator
              />
              <TextField
                label="API token"
                name="token"
                type="password"
                value={token}
                onChange={setToken}
                autoComplete="new-password"
                placeholder={savedTokenApplies ? "••••••••••••" : undefined}
                helpText={
                  !connection.hasToken
                    ? "Stored encrypted. It is never shown again, here or anywhere else."
                    : savedTokenApplies
                      ? "A token is set. Leave this empty to keep it (only for this base URL and username), or paste a new one."
                      : "A token is set, for the saved base URL and username only. You changed one of them: enter the token again."
                }
                error={errors.token}
                requiredIndicator={!savedTokenApplies}
              />
            </FormLayout.Group>
          </FormLayout>
          <Box>
            <InlineStack align="end" gap="200">
              {canDisconnect ? (
                <Button tone="critical" onClick={() => setConfirming(true)} loading={disconnecting}>
                  Disconnect
                </Button>
              ) : null}
              {connection.status === "not_connected" ? (
                <Button submit variant="primary" loading={connecting}>
                  Connect
                </Button>
              ) : null}
            </InlineStack>
          </Box>
        </BlockStack>
      </Form>
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Disconnect the referral service?"
        primaryAction={{ content: "Disconnect", destructive: true, onAction: disconnect }}
        secondaryActions={[{ content: "Cancel", onAction: () => setConfirming(false) }]}
      >
        <Modal.Section>
          <BlockStack gap="200">
            <Text as="p">
              The app deletes the saved API token and stops calling {connection.companyName ?? "your referral program"}. New
              orders are still received, and they wait with everything else for the service until you connect again: nothing
              is lost.
            </Text>
            <Text as="p">
              Until then, the storefront shows no share links, and commissions, ambassadors and campaigns can&apos;t be shown.
              To connect again you need the API token.
            </Text>
          </BlockStack>
        </Modal.Section>
      </Modal>
    </Card>
  );
}
