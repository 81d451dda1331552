import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import prisma from "../db.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = await prisma.shop.findUnique({ where: { shop: session.shop } });
  return {
    shop: session.shop,
    companyName: shop?.companyName ?? null,
    connectionStatus: shop?.connectionStatus ?? "not_connected",
  };
};

const STATUS_BADGE = {
  connected: <Badge tone="success">Connected</Badge>,
  broken: <Badge tone="critical">Needs new credentials</Badge>,
  not_connected: <Badge>Not connected</Badge>,
} as const;

export default function Home() {
  const { shop, companyName, connectionStatus } = useLoaderData<typeof loader>();
  return (
    <Page title="Referral Bridge">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Referral program connection
              </Text>
              <Text as="p">
                {companyName ? `${shop} records referrals for ${companyName}.` : `${shop} is not connected to a referral program yet.`}
              </Text>
              {STATUS_BADGE[connectionStatus as keyof typeof STATUS_BADGE] ?? STATUS_BADGE.not_connected}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
