import { BlockStack, InlineGrid, TextField } from "@shopify/polaris";

export interface PayoutSettingsValues {
  payoutCurrency: string;
  payoutCeiling: string;
  payoutPeriodTotal: string;
}

/** The program's currency, the ceiling and the total per ambassador, in the Service events page's options form. */
export function PayoutSettingsFields({
  values,
  onChange,
  errors = {},
  recorded,
}: {
  values: PayoutSettingsValues;
  onChange(values: PayoutSettingsValues): void;
  errors?: Partial<Record<keyof PayoutSettingsValues, string>>;
  /** Whether a currency is stored (else the shop's is assumed until the first payout reads it). */
  recorded: boolean;
}) {
  const currency = values.payoutCurrency.trim().toUpperCase();
  return (
    <BlockStack gap="200">
      <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
        <TextField
          label="Program currency"
          autoComplete="off"
          maxLength={3}
          placeholder="Your store's currency"
          value={values.payoutCurrency}
          onChange={(payoutCurrency) => onChange({ ...values, payoutCurrency })}
          error={errors.payoutCurrency}
          helpText={
            recorded
              ? "The currency your referral program pays in (the service's payouts do not say). A payout is credited only when this is your store's currency; the app never converts."
              : "Not set yet: the app takes your store's currency, read from Shopify at the first payout. Set it here if your program pays in another one."
          }
        />
        <TextField
          label="Approve payouts above"
          autoComplete="off"
          inputMode="decimal"
          suffix={currency || undefined}
          value={values.payoutCeiling}
          onChange={(payoutCeiling) => onChange({ ...values, payoutCeiling })}
          error={errors.payoutCeiling}
          helpText="A larger payout waits on this page for your approval before it is credited. Most referral rewards are well under 100.00, the default; a larger one is worth a look."
        />
        <TextField
          label="Approve when one ambassador's payouts in 30 days pass"
          autoComplete="off"
          inputMode="decimal"
          suffix={currency || undefined}
          value={values.payoutPeriodTotal}
          onChange={(payoutPeriodTotal) => onChange({ ...values, payoutPeriodTotal })}
          error={errors.payoutPeriodTotal}
          helpText="A payout that would take one ambassador's store credit from the app past this total in 30 days waits for your approval; 300.00 by default. It stops a stream of small payouts nobody looked at."
        />
      </InlineGrid>
    </BlockStack>
  );
}
