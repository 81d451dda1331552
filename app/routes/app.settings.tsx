import { defer, json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Layout, Page } from "@shopify/polaris";
import type { ComponentProps } from "react";
import { campaignViews } from "../entry/admin/campaigns.server";
import { connectShop, disconnectShop, readConnection } from "../entry/admin/connection.server";
import { appAdminContext } from "../wiring/admin-context.server";
import { formFields } from "../entry/admin/form-data";
import { readIntent } from "../entry/admin/intent";
import { ROTATE_SECRET_INTENT } from "../entry/admin/service-webhook";
import { rotateServiceWebhookSecret, serviceWebhookView } from "../entry/admin/service-webhook.server";
import { readSettings, saveSettings, SETTINGS_LIST_FIELDS } from "../entry/admin/settings.server";
import { deferService, withService } from "../entry/admin/shop-service.server";
import type { ReferralClient } from "../platform/referral-api";
import { ConnectionCard } from "../entry/admin/components/ConnectionCard";
import { DataRetentionCard } from "../entry/admin/components/DataRetentionCard";
import { retentionPeriods } from "../domains/privacy/retention.server";
import { CardSkeleton, Deferred } from "../entry/admin/components/Deferred";
import { RouteErrorBoundary } from "../entry/admin/components/RouteErrorBoundary";
import { ServiceErrorBanner } from "../entry/admin/components/ServiceErrorBanner";
import { ServiceWebhookCard } from "../entry/admin/components/ServiceWebhookCard";
import { SettingsForm } from "../entry/admin/components/SettingsForm";
import { authenticate } from "../wiring/shopify.server";

type FormProps = ComponentProps<typeof SettingsForm>;

async function readProgram(client: ReferralClient) {
  const [company, groups] = await Promise.all([client.getCompany(), client.listGroups()]);
  return { company, groups };
}

function programOf(shop: string) {
  return withService(appAdminContext(), shop, readProgram);
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const settings = await readSettings(ctx, session.shop);
  const [connection, serviceWebhook, program] = await Promise.all([
    readConnection(ctx, session.shop),
    serviceWebhookView(ctx, session.shop),
    deferService(ctx, session.shop, async (client) => {
      const { company, groups } = await readProgram(client);
      return {
        campaigns: campaignViews(company, settings.campaignUids),
        groups: groups.map((g) => ({ id: g.groupId, name: g.name ?? `Group ${g.groupId}`, isDefault: g.isDefault ?? false })),
      };
    }),
  ]);
  return defer({
    connection,
    settings,
    serviceWebhook,
    retention: retentionPeriods(),
    // May stream in after the page has painted; null before the program is connected.
    program: program.ok ? program.answer : null,
  });
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
  const { connection, settings, program, serviceWebhook, retention } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const settingsForm = (campaigns: FormProps["campaigns"], groups: FormProps["groups"]) => (
    <SettingsForm
      settings={settings}
      campaigns={campaigns}
      groups={groups}
      feedback={result?.intent === "save-settings" ? result : undefined}
    />
  );
  return (
    <Page title="Settings" subtitle="Connect your referral program and choose how orders are recorded.">
      <BlockStack gap="500">
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
        {program ? (
          <Deferred resolve={program} fallback={<SettingsSkeleton />}>
            {(answer) =>
              answer.ok ? (
                settingsForm(answer.value.campaigns, answer.value.groups)
              ) : (
                <>
                  <ServiceErrorBanner error={answer.error} />
                  {settingsForm(null, null)}
                </>
              )
            }
          </Deferred>
        ) : (
          settingsForm(null, null)
        )}
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

/** The settings' sections while the program's campaigns and groups are on their way. */
function SettingsSkeleton() {
  return (
    <Layout>
      <Layout.AnnotatedSection id="tracking-loading" title="Order tracking" description="Loading your program's campaigns.">
        <CardSkeleton label="Loading your program's campaigns" lines={12} />
      </Layout.AnnotatedSection>
      <Layout.AnnotatedSection id="storefront-loading" title="Storefront" description="Loading your program's groups.">
        <CardSkeleton label="Loading your program's groups" lines={6} />
      </Layout.AnnotatedSection>
    </Layout>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Settings" />;
}
