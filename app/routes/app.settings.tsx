import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Layout, Page } from "@shopify/polaris";
import { campaignViews } from "../admin/campaigns.server";
import { connectShop, disconnectShop, readConnection } from "../admin/connection.server";
import { appAdminContext } from "../wiring/admin-context.server";
import { formFields } from "../admin/form-data";
import { readIntent } from "../admin/intent";
import { ROTATE_SECRET_INTENT } from "../admin/service-webhook";
import { rotateServiceWebhookSecret, serviceWebhookView } from "../admin/service-webhook.server";
import { readSettings, saveSettings, SETTINGS_LIST_FIELDS } from "../admin/settings.server";
import { withService } from "../admin/shop-service.server";
import { ConnectionCard } from "../components/ConnectionCard";
import { DataRetentionCard } from "../components/DataRetentionCard";
import { retentionPeriods } from "../privacy/retention.server";
import { RouteErrorBoundary } from "../components/RouteErrorBoundary";
import { ServiceErrorBanner } from "../components/ServiceErrorBanner";
import { ServiceWebhookCard } from "../components/ServiceWebhookCard";
import { SettingsForm } from "../components/SettingsForm";
import { authenticate } from "../shopify.server";

async function programOf(shop: string) {
  return withService(appAdminContext(), shop, async (client) => {
    const [company, groups] = await Promise.all([client.getCompany(), client.listGroups()]);
    return { company, groups };
  });
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const settings = await readSettings(ctx, session.shop);
  const program = (await readConnection(ctx, session.shop)).status === "connected" ? await programOf(session.shop) : null;
  return {
    // Read after the service call: refused credentials mark the connection broken.
    connection: await readConnection(ctx, session.shop),
    settings,
    campaigns: program?.ok ? campaignViews(program.value.company, settings.campaignUids) : null,
    groups: program?.ok
      ? program.value.groups.map((g) => ({ id: g.groupId, name: g.name ?? `Group ${g.groupId}`, isDefault: g.isDefault ?? false }))
      : null,
    programError: program && !program.ok && !program.notConnected ? program.error : null,
    serviceWebhook: await serviceWebhookView(ctx, session.shop),
    retention: retentionPeriods(),
  };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const form = await request.formData();
  const intent = readIntent(form, ["connect", "disconnect", "save-settings", ROTATE_SECRET_INTENT]);
  if (intent === "connect") {
    const result = await connectShop(ctx, session.shop, formFields(form));
    return json({ intent, ...result }, { status: result.ok ? 200 : 400 });
  }
  if (intent === "disconnect") {
    const result = await disconnectShop(ctx, session.shop);
    return json({ intent, ...result }, { status: result.ok ? 200 : 400 });
  }
  if (intent === "save-settings") {
    // Chosen campaigns and group must exist in the program, when it can be asked.
    const program = (await readConnection(ctx, session.shop)).status === "connected" ? await programOf(session.shop) : null;
    const known = program?.ok
      ? { campaignUids: program.value.company.campaigns.map((c) => c.campaignUid), groupIds: program.value.groups.map((g) => g.groupId) }
      : {};
    const result = await saveSettings(ctx, session.shop, formFields(form, SETTINGS_LIST_FIELDS), known);
    return json({ intent, ...result }, { status: result.ok ? 200 : 400 });
  }
  if (intent === ROTATE_SECRET_INTENT) {
    const result = await rotateServiceWebhookSecret(ctx, session.shop, formFields(form));
    return json({ intent, ...result }, { status: result.ok ? 200 : 400 });
  }
  return json({ intent: null, ok: false as const, fieldErrors: { form: "Unknown form." } }, { status: 400 });
};

export default function Settings() {
  const { connection, settings, campaigns, groups, programError, serviceWebhook, retention } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <Page title="Settings" subtitle="Connect your referral program and choose how orders are recorded.">
      <BlockStack gap="500">
        {programError ? <ServiceErrorBanner error={programError} /> : null}
        <Layout>
          <Layout.AnnotatedSection
            id="connection"
            title="Referral service"
            description="The API username and token of your referral program account. The app checks them with the service before saving; the token is stored encrypted."
          >
            <ConnectionCard
              connection={connection}
              feedback={result?.intent === "connect" ? result : undefined}
              disconnected={result?.intent === "disconnect" ? result : undefined}
            />
          </Layout.AnnotatedSection>
        </Layout>
        <SettingsForm
          settings={settings}
          campaigns={campaigns}
          groups={groups}
          feedback={result?.intent === "save-settings" ? result : undefined}
        />
        <Layout>
          <Layout.AnnotatedSection
            id="service-webhooks"
            title="Service webhooks"
            description="Paste the receiving URL and the secret into the referral service's webhook settings. The secret is shown only when it is made; rotate it for a new one. What the app does with the events is chosen on the Service events page."
          >
            <ServiceWebhookCard webhook={serviceWebhook} rotation={result?.intent === ROTATE_SECRET_INTENT ? result : undefined} />
          </Layout.AnnotatedSection>
        </Layout>
        <DataRetentionCard periods={retention} />
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Settings" />;
}
