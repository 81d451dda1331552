// app/routes/account.referrals.tsx: the signed-in customer's share links, asked
// of the Referral Bridge app with their Customer Account API token (the app asks
// Shopify whose token it is; the storefront never names the customer itself).
import { fetchShareLinks } from "@referral-bridge/headless";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { ShareLinksPanel } from "../components/ShareLinksPanel";
import { referralContext } from "../lib/referral-context";

export async function loader({ context }: LoaderFunctionArgs) {
  const { customerAccount, env } = referralContext(context);
  const customerAccessToken = (await customerAccount.isLoggedIn()) ? await customerAccount.getAccessToken() : undefined;
  return { state: await fetchShareLinks({ appUrl: env.REFERRAL_BRIDGE_APP_URL, shop: env.PUBLIC_STORE_DOMAIN, customerAccessToken }) };
}

export default function AccountReferrals() {
  const { state } = useLoaderData<typeof loader>();
  return <ShareLinksPanel state={state} />;
}
