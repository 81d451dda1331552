import { realSleep } from "../../platform/http/sleep";
import { adminCall } from "../../platform/shopify-admin/admin-call.server";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";

// Shopify's staff advise telling a subscription order by its line items'
// selling plan, which only the Admin GraphQL API has (the webhook's
// source_name changed name in October 2025 without notice). Asked only for
// a referred customer's order whose source or tags suggest a subscription
// and that nothing else marked a renewal; paced like every Admin call
// (adminCall). 50 line items: 103 points of Shopify's 1,000.

export const ORDER_SELLING_PLANS_QUERY = `#graphql
  query ReferralBridgeOrderSellingPlans($id: ID!) {
    order(id: $id) {
      lineItems(first: 50) {
        nodes {
          sellingPlan {
            name
          }
        }
      }
    }
  }`;

interface Answer {
  order: { lineItems: { nodes: { sellingPlan: { name: string } | null }[] } } | null;
}

/** The renewal signal a line item's selling plan gives, in the merchant's words; null when none has one, or when Shopify cannot be asked (the order is then judged without it). */
export async function sellingPlanSignal(adminForShop: AdminForShop | undefined, shop: string, orderId: string): Promise<string | null> {
  if (!adminForShop) return null;
  const access = await adminForShop(shop);
  if (!access.ok) return null;
  try {
    const data = await adminCall<Answer>({ admin: access.admin, sleep: realSleep }, ORDER_SELLING_PLANS_QUERY, { id: `gid://shopify/Order/${orderId}` });
    const plan = data.order?.lineItems.nodes.find((item) => item.sellingPlan)?.sellingPlan;
    return plan ? `a line item's selling plan "${plan.name}"` : null;
  } catch (error) {
    if (error instanceof AdminCallError) return null;
    throw error;
  }
}
