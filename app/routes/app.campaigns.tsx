import { defer, json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useState } from "react";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  InlineGrid,
  InlineStack,
  Layout,
  Link,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import {
  campaignTrackingSchema,
  campaignViews,
  missingTrackedCampaigns,
  repeatPolicyFormSchema,
  withRepeatPolicy,
  type CampaignView,
} from "../entry/admin/campaigns.server";
import { appAdminContext } from "../wiring/admin-context.server";
import { formFields, fieldErrorsOf } from "../entry/admin/form-data";
import { readSettings, setCampaignTracked } from "../entry/admin/settings.server";
import { FriendOfferCard } from "../entry/admin/components/FriendOfferCard";
import { readIntent } from "../entry/admin/intent";
import { OFFER_INTENTS, offerAction, type OfferActionResult } from "../entry/admin/offer-action.server";
import { offerViews, type OfferView } from "../domains/offers/offer-page.server";
import { deferService, withService } from "../entry/admin/shop-service.server";
import { CardSkeleton, Deferred } from "../entry/admin/components/Deferred";
import { EmptyListState, NotConnectedState } from "../entry/admin/components/EmptyStates";
import { useEmbeddedHref } from "../entry/admin/components/embedded-url";
import { formatDate } from "../entry/admin/components/format";
import { RouteErrorBoundary } from "../entry/admin/components/RouteErrorBoundary";
import { ServiceErrorBanner } from "../entry/admin/components/ServiceErrorBanner";
import { authenticate } from "../wiring/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const settings = await readSettings(ctx, session.shop);
  const stored = await ctx.db.shop.findUnique({ where: { shop: session.shop }, select: { repeatPolicies: true } });
  const [service, offers] = await Promise.all([
    deferService(ctx, session.shop, async (client) => {
      const company = await client.getCompany();
      return {
        companyName: company.company.companyName,
        campaigns: campaignViews(company, settings.campaignUids, stored?.repeatPolicies),
        missing: missingTrackedCampaigns(company, settings.campaignUids),
      };
    }),
    offerViews(ctx.db, session.shop),
  ]);
  if (!service.ok) return defer({ ok: false as const, error: service.error, notConnected: true });
  // The program may stream in after the page has painted.
  return defer({ ok: true as const, offers, program: service.answer });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const form = await request.formData();
  const offerIntent = readIntent(form, OFFER_INTENTS);
  if (offerIntent) {
    const result = await offerAction(ctx.db, session.shop, offerIntent, formFields(form));
    return json({ offer: result }, { status: result.ok ? 200 : 400 });
  }
  if (form.get("intent") === "repeat-policy") {
    const policy = repeatPolicyFormSchema.safeParse(formFields(form));
    if (!policy.success) return json({ ok: false as const, fieldErrors: fieldErrorsOf(policy.error.issues) }, { status: 400 });
    const row = await ctx.db.shop.findUnique({ where: { shop: session.shop }, select: { repeatPolicies: true } });
    const repeatPolicies = withRepeatPolicy(row?.repeatPolicies, policy.data.campaignUid, policy.data.policy);
    await ctx.db.shop.upsert({ where: { shop: session.shop }, create: { shop: session.shop, repeatPolicies }, update: { repeatPolicies } });
    return json({ ok: true as const, intent: "repeat-policy" as const, campaignUid: policy.data.campaignUid, resumedJobs: 0 });
  }
  const parsed = campaignTrackingSchema.safeParse(formFields(form));
  if (!parsed.success) return json({ ok: false as const, fieldErrors: fieldErrorsOf(parsed.error.issues) }, { status: 400 });
  const { intent, campaignUid } = parsed.data;
  if (intent === "track") {
    // Only an active campaign of this shop's program can be tracked.
    const company = await withService(ctx, session.shop, (client) => client.getCompany());
    if (!company.ok) return json({ ok: false as const, error: company.error }, { status: 502 });
    if (!company.value.campaigns.some((c) => c.campaignUid === campaignUid)) {
      return json(
        { ok: false as const, fieldErrors: { campaignUid: "This campaign isn't active in your program." } },
        { status: 400 }
      );
    }
  }
  const result = await setCampaignTracked(ctx, session.shop, campaignUid, intent === "track");
  return json({ ok: true as const, intent, campaignUid, resumedJobs: result.resumedJobs });
};

function Flags({ campaign }: { campaign: CampaignView }) {
  return (
    <InlineStack gap="200">
      {campaign.tracked ? (
        <Badge tone="success" progress="complete">
          Tracked
        </Badge>
      ) : (
        <Badge progress="incomplete">Not tracked</Badge>
      )}
      {campaign.private ? <Badge>Private</Badge> : <Badge tone="info">Public</Badge>}
      {campaign.sandbox ? <Badge tone="attention">Sandbox</Badge> : null}
      {campaign.autoApprove ? <Badge tone="success">Auto-approves commissions</Badge> : <Badge>Manual approval</Badge>}
    </InlineStack>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <BlockStack gap="100">
      <Text as="h4" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <Text as="p">{children}</Text>
    </BlockStack>
  );
}

const POLICY_OPTIONS = [
  { value: "as_paid", label: "Every later order, as the campaign pays" },
  { value: "renewals_only", label: "Subscription renewals only" },
  { value: "first_n", label: "The first N subscription renewals" },
  { value: "first_only", label: "First order only: nothing later" },
];

/** What a referred customer's later orders earn in this campaign, on top of its recurring reward. */
function RepeatPolicyForm({ campaign }: { campaign: CampaignView }) {
  const [policy, setPolicy] = useState<string>(campaign.repeatPolicy.policy);
  const [firstN, setFirstN] = useState(String(campaign.repeatPolicy.firstN ?? 3));
  if (!campaign.paysRecurring) {
    return (
      <Text as="p" tone="subdued">
        Later orders: this campaign pays no recurring reward, so a referred customer&apos;s later orders are not sent.
      </Text>
    );
  }
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="repeat-policy" />
      <input type="hidden" name="campaignUid" value={campaign.uid} />
      <BlockStack gap="200">
        <InlineStack gap="300" blockAlign="end">
          <Select
            label="Later orders of a referred customer earn"
            name="policy"
            options={POLICY_OPTIONS}
            value={policy}
            onChange={setPolicy}
            helpText="Sent without a code: the referral service credits the first referrer on the campaign's recurring reward."
          />
          {policy === "first_n" ? <TextField label="Renewals that earn" name="firstN" type="number" min={1} max={1000} value={firstN} onChange={setFirstN} autoComplete="off" /> : null}
          <Button submit accessibilityLabel={`Save the later orders policy of ${campaign.name}`}>
            Save
          </Button>
        </InlineStack>
      </BlockStack>
    </Form>
  );
}

function CampaignCard({ campaign, offer, offerResult }: { campaign: CampaignView; offer: OfferView | undefined; offerResult?: OfferActionResult }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("campaignUid") === campaign.uid;
  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="start" gap="300">
          <BlockStack gap="200">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h2" variant="headingMd">
                {campaign.name}
              </Text>
              <Text as="span" variant="bodySm" tone="subdued">
                #{campaign.uid}
              </Text>
            </InlineStack>
            <Flags campaign={campaign} />
          </BlockStack>
          <Form method="post">
            <input type="hidden" name="campaignUid" value={campaign.uid} />
            <input type="hidden" name="intent" value={campaign.tracked ? "untrack" : "track"} />
            <Button
              submit
              loading={busy}
              variant={campaign.tracked ? "secondary" : "primary"}
              accessibilityLabel={`${campaign.tracked ? "Stop tracking" : "Track orders in"} ${campaign.name}`}
            >
              {campaign.tracked ? "Stop tracking" : "Track orders"}
            </Button>
          </Form>
        </InlineStack>
        {campaign.description ? (
          <Text as="p" tone="subdued">
            {campaign.description}
          </Text>
        ) : null}
        <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
          <Fact label="First order">{campaign.initialReward}</Fact>
          <Fact label="Later orders">{campaign.recurringReward}</Fact>
          <Fact label="Runs">
            {campaign.startDate ? `From ${formatDate(campaign.startDate)}` : "Always"}
            {campaign.endDate ? ` to ${formatDate(campaign.endDate)}` : ", no end date"}
          </Fact>
          <Fact label="Friend's discount">{campaign.discountValue ? campaign.discountValue : "None"}</Fact>
        </InlineGrid>
        {campaign.landingPage ? (
          <Box>
            <Text as="p" variant="bodySm" tone="subdued">
              Landing page:{" "}
              <Link url={campaign.landingPage} target="_blank" removeUnderline>
                {campaign.landingPage}
              </Link>
            </Text>
          </Box>
        ) : null}
        <RepeatPolicyForm campaign={campaign} />
        <FriendOfferCard
          campaignUid={campaign.uid}
          campaignName={campaign.name}
          campaignDiscountValue={campaign.discountValue}
          offer={offer}
          fieldErrors={offerResult && !offerResult.ok && offerResult.campaignUid === campaign.uid ? offerResult.fieldErrors : undefined}
        />
      </BlockStack>
    </Card>
  );
}

export default function Campaigns() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const href = useEmbeddedHref();
  if (!data.ok) {
    return (
      <Page title="Campaigns">
        <NotConnectedState error={data.error} />
      </Page>
    );
  }
  const offerResult = result && "offer" in result ? result.offer : undefined;
  const trackingResult = result && !("offer" in result) ? result : undefined;
  return (
    <Page
      title="Campaigns"
      subtitle="The active campaigns of your referral program, and whether orders are recorded in each"
      secondaryActions={[{ content: "Tracking settings", url: href("/app/settings") }]}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {trackingResult?.ok ? (
              <Banner
                tone="success"
                title={trackingResult.intent === "repeat-policy" ? "Later orders policy saved" : trackingResult.intent === "track" ? "Campaign tracked" : "Campaign no longer tracked"}
              >
                <Text as="p">
                  {trackingResult.intent === "repeat-policy"
                    ? "New orders of referred customers follow it."
                    : trackingResult.intent === "track"
                    ? "New referred orders are recorded in it."
                    : "New orders aren't recorded in it any more."}
                  {trackingResult.resumedJobs ? ` ${trackingResult.resumedJobs} held orders are being sent now.` : ""}
                </Text>
              </Banner>
            ) : null}
            {trackingResult && !trackingResult.ok && "error" in trackingResult ? <ServiceErrorBanner error={trackingResult.error} /> : null}
            {trackingResult && !trackingResult.ok && "fieldErrors" in trackingResult ? (
              <Banner tone="critical" title="The campaign couldn't be changed">
                <Text as="p">{Object.values(trackingResult.fieldErrors).join(" ")}</Text>
              </Banner>
            ) : null}
            {offerResult?.ok ? (
              <Banner tone="success" title={offerResult.intent === "save-offer" ? "Offer saved" : offerResult.intent === "pause-offer" ? "Offer paused" : "Offer resumed"}>
                <Text as="p">Shopify is being brought in step now; the card shows how far it got.</Text>
              </Banner>
            ) : null}
            <Text as="p">
              Referred orders are recorded in the campaigns you track, and each campaign's rewards decide what the ambassador
              earns. With a friend's offer, friends who follow a share link get the campaign's discount at checkout, applied for
              them; the app keeps its codes in step with Shopify.
            </Text>
            <Deferred
              resolve={data.program}
              fallback={
                <>
                  <CardSkeleton label="Loading campaigns" lines={6} />
                  <CardSkeleton label="Loading campaigns" lines={6} />
                </>
              }
            >
              {(program) =>
                !program.ok ? (
                  <ServiceErrorBanner error={program.error} />
                ) : (
                  <>
                    <Text as="p" tone="subdued">
                      {`${program.value.companyName ?? "Your program"}: ${program.value.campaigns.filter((c) => c.tracked).length} of ${
                        program.value.campaigns.length
                      } active ${program.value.campaigns.length === 1 ? "campaign" : "campaigns"} tracked`}
                    </Text>
                    {program.value.missing.length > 0 ? (
                      <Banner tone="warning" title="A tracked campaign has ended">
                        <Text as="p">
                          Campaign {program.value.missing.join(", ")} is tracked but no longer active, so orders can't be recorded in it. Untick it
                          in <Link url={href("/app/settings")}>Settings</Link>.
                        </Text>
                      </Banner>
                    ) : null}
                    {program.value.campaigns.length === 0 ? (
                      <Card>
                        <EmptyListState heading="No active campaigns">
                          <p>Create or activate a campaign in your referral program; it shows up here to track.</p>
                        </EmptyListState>
                      </Card>
                    ) : (
                      program.value.campaigns.map((campaign) => (
                        <CampaignCard key={campaign.uid} campaign={campaign} offer={data.offers[campaign.uid]} offerResult={offerResult} />
                      ))
                    )}
                  </>
                )
              }
            </Deferred>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Campaigns" />;
}
