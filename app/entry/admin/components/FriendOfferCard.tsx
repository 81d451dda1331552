import { Form, useNavigation, useSubmit } from "@remix-run/react";
import { ContextualSaveBar } from "./ContextualSaveBar";
import { Badge, Banner, BlockStack, Box, Button, Checkbox, Divider, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import type { OfferView } from "../../../domains/offers/offer-page.server";
import {
  describeOffer,
  effectiveValue,
  ELIGIBILITY_LABELS,
  OFFER_DEFAULTS,
  OFFER_KIND_LABELS,
  type OfferKind,
  type OfferSettings,
} from "../../../domains/offers/offer-settings";
import { formatDate } from "./format";

function StateBadge({ offer }: { offer: OfferView | undefined }) {
  if (!offer) return <Badge>Not set up</Badge>;
  if (offer.lastError) return <Badge tone="critical">Needs attention</Badge>;
  if (offer.paused) return <Badge tone="attention">Paused</Badge>;
  if (!offer.inShopify) return <Badge tone="info">Waiting for the first code</Badge>;
  return <Badge tone="success">Live in Shopify</Badge>;
}

/** The friend's offer of one campaign: a Shopify discount holding the ambassadors' codes. */
export function FriendOfferCard({
  campaignUid,
  campaignName,
  campaignDiscountValue,
  offer,
  fieldErrors,
}: {
  campaignUid: string;
  campaignName: string;
  campaignDiscountValue: string | null;
  offer: OfferView | undefined;
  fieldErrors?: Record<string, string>;
}) {
  const [values, setValues] = useState<OfferSettings>(offer?.settings ?? OFFER_DEFAULTS);
  const storedKey = JSON.stringify(offer?.settings ?? OFFER_DEFAULTS);
  // After a save (the page's data read again) the form shows what is stored.
  useEffect(() => setValues(JSON.parse(storedKey) as OfferSettings), [storedKey]);
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state === "submitting" && navigation.formData?.get("campaignUid") === campaignUid && navigation.formData?.get("intent") === intent;
  const set =
    <K extends keyof OfferSettings>(key: K) =>
    (value: OfferSettings[K]) =>
      setValues((v) => ({ ...v, [key]: value }));
  const shown = describeOffer(values.kind, effectiveValue(values, campaignDiscountValue));
  const errors = fieldErrors ?? {};

  return (
    <BlockStack gap="300">
      <Divider />
      <InlineStack align="space-between" blockAlign="center">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingSm">
            Friend&apos;s offer
          </Text>
          <StateBadge offer={offer} />
        </InlineStack>
        {offer ? (
          <Form method="post">
            <input type="hidden" name="campaignUid" value={campaignUid} />
            <input type="hidden" name="intent" value={offer.paused ? "resume-offer" : "pause-offer"} />
            <Button submit loading={busy(offer.paused ? "resume-offer" : "pause-offer")} accessibilityLabel={`${offer.paused ? "Resume" : "Pause"} the friend's offer of ${campaignName}`}>
              {offer.paused ? "Resume offer" : "Pause offer"}
            </Button>
          </Form>
        ) : null}
      </InlineStack>
      <Text as="p" tone="subdued">
        Friends who follow a share link of this campaign get {shown.toLowerCase()} at checkout, applied for them. Shopify checks who may use it.
      </Text>
      {offer ? (
        <InlineStack gap="400">
          <Text as="span">
            <Text as="span" fontWeight="semibold">
              {offer.codesInShopify}
            </Text>{" "}
            codes in Shopify
          </Text>
          <Text as="span">
            <Text as="span" fontWeight="semibold">
              {offer.codesWaiting}
            </Text>{" "}
            waiting
          </Text>
          <Text as="span" tone="subdued">
            Last sync: {offer.lastSyncAt ? formatDate(offer.lastSyncAt) : "not yet"}
          </Text>
        </InlineStack>
      ) : null}
      {offer?.lastError ? (
        <Banner tone="critical" title="The offer isn't fully in Shopify">
          <Text as="p">{offer.lastError}</Text>
        </Banner>
      ) : null}
      {offer && offer.codesTaken > 0 ? (
        <Banner tone="warning" title={`${offer.codesTaken} code${offer.codesTaken === 1 ? " is" : "s are"} already used by another discount`}>
          <Text as="p">
            {offer.takenCodes.join(", ")}
            {offer.codesTaken > offer.takenCodes.length ? " and more" : ""}: another discount in your shop has {offer.codesTaken === 1 ? "this code" : "these codes"},
            so the app left {offer.codesTaken === 1 ? "it" : "them"} as {offer.codesTaken === 1 ? "it is" : "they are"}. Friends using{" "}
            {offer.codesTaken === 1 ? "it" : "them"} get that discount instead.
          </Text>
        </Banner>
      ) : null}
      <Form method="post" aria-label={`Friend's offer of ${campaignName}`} ref={form}>
        {offer ? (
          // An offer in Shopify is edited like any settings form; creating one is the card's button.
          <ContextualSaveBar
            id={`offer-save-bar-${campaignUid}`}
            dirty={JSON.stringify(values) !== storedKey}
            saving={busy("save-offer")}
            onSave={() => form.current && submit(form.current)}
            onDiscard={() => setValues(JSON.parse(storedKey) as OfferSettings)}
          />
        ) : null}
        <input type="hidden" name="campaignUid" value={campaignUid} />
        <input type="hidden" name="intent" value="save-offer" />
        <FormLayout>
          <FormLayout.Group>
            <Select
              label="The friend gets"
              name="kind"
              options={Object.entries(OFFER_KIND_LABELS).map(([value, label]) => ({ value, label }))}
              value={values.kind}
              onChange={(v) => set("kind")(v as OfferKind)}
              error={errors.kind}
            />
            <TextField
              label={values.kind === "percentage" ? "Percent off" : "Amount off"}
              name="value"
              autoComplete="off"
              disabled={values.kind === "free_shipping"}
              value={values.value ?? ""}
              placeholder={campaignDiscountValue ?? ""}
              helpText={campaignDiscountValue ? `Empty: the campaign's discount value (${campaignDiscountValue})` : "The campaign has no discount value"}
              onChange={(v) => set("value")(v === "" ? null : v)}
              error={errors.value}
            />
            <TextField
              label="Minimum subtotal"
              name="minimumSubtotal"
              autoComplete="off"
              value={values.minimumSubtotal ?? ""}
              placeholder="No minimum"
              onChange={(v) => set("minimumSubtotal")(v === "" ? null : v)}
              error={errors.minimumSubtotal}
            />
          </FormLayout.Group>
          <FormLayout.Group>
            <Select
              label="Who may use it"
              name="eligibility"
              options={Object.entries(ELIGIBILITY_LABELS).map(([value, label]) => ({ value, label }))}
              value={values.eligibility}
              onChange={(v) => set("eligibility")(v as OfferSettings["eligibility"])}
            />
            <Box paddingBlockStart="600">
              <Checkbox label="Once per customer" name="oncePerCustomer" value="on" checked={values.oncePerCustomer} onChange={set("oncePerCustomer")} />
            </Box>
          </FormLayout.Group>
          <InlineStack gap="400">
            <Text as="span" variant="bodySm" tone="subdued">
              Combines with:
            </Text>
            <Checkbox label="Order discounts" name="combinesOrder" value="on" checked={values.combinesOrder} onChange={set("combinesOrder")} />
            <Checkbox label="Product discounts" name="combinesProduct" value="on" checked={values.combinesProduct} onChange={set("combinesProduct")} />
            <Checkbox
              label="Shipping discounts"
              name="combinesShipping"
              value="on"
              disabled={values.kind === "free_shipping"}
              checked={values.kind !== "free_shipping" && values.combinesShipping}
              onChange={set("combinesShipping")}
            />
          </InlineStack>
          <Text as="p" variant="bodySm" tone="subdued">
            Starts and ends with the campaign. The discount is named after your program and this campaign on Shopify&apos;s Discounts page.
          </Text>
          {offer ? null : (
            <InlineStack align="end">
              <Button submit variant="primary" loading={busy("save-offer")}>
                Create offer in Shopify
              </Button>
            </InlineStack>
          )}
        </FormLayout>
      </Form>
    </BlockStack>
  );
}
