import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AppProvider, BlockStack, Button, Card, FormLayout, List, Page, Text, TextField } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { useState } from "react";
import { asksForShopDomain, getEnv } from "../../wiring/env.server";
import { login } from "../../wiring/shopify.server";
import { loginErrorMessage } from "./error.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

// Shopify opens the app with ?shop=... (the library takes it from there).
// Without one, production sends the visitor to the app's listing or says
// how to open the app from the Shopify admin; only development shows the
// library's shop domain form.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  if (!asksForShopDomain() && !new URL(request.url).searchParams.get("shop")) {
    const listing = getEnv().APP_LISTING_URL;
    if (listing) throw redirect(listing);
    return { form: false as const, errors: {} };
  }
  return { form: true as const, errors: loginErrorMessage(await login(request)) };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  if (!asksForShopDomain()) throw new Response("Not Found", { status: 404 });
  return { errors: loginErrorMessage(await login(request)) };
};

export default function Auth() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <AppProvider i18n={enTranslations}>
      <Page narrowWidth>{loaderData.form ? <ShopDomainForm errors={(actionData ?? loaderData).errors} /> : <OpenFromAdmin />}</Page>
    </AppProvider>
  );
}

function OpenFromAdmin() {
  return (
    <Card>
      <BlockStack gap="300">
        <Text variant="headingMd" as="h1">
          Open Referral Bridge from your Shopify admin
        </Text>
        <List type="number">
          <List.Item>Log in to your Shopify admin.</List.Item>
          <List.Item>Go to Apps and choose Referral Bridge.</List.Item>
        </List>
        <Text as="p">Not installed yet? Find Referral Bridge on the Shopify App Store and install it from there.</Text>
      </BlockStack>
    </Card>
  );
}

function ShopDomainForm({ errors }: { errors: { shop?: string } }) {
  const [shop, setShop] = useState("");
  return (
    <Card>
      <Form method="post">
        <FormLayout>
          <Text variant="headingMd" as="h2">
            Log in to Referral Bridge
          </Text>
          <TextField
            type="text"
            name="shop"
            label="Shop domain"
            helpText="example.myshopify.com"
            value={shop}
            onChange={setShop}
            autoComplete="on"
            error={errors.shop}
          />
          <Button submit>Log in</Button>
        </FormLayout>
      </Form>
    </Card>
  );
}
