import type { Commission, ReferralClient } from "../../platform/referral-api";

/**
 * The order's commissions at the service. commission/all has no transaction
 * filter: the commissions of the order's referrers (every commission when
 * the record names none) are read, and the order's kept.
 */
export async function commissionsOfOrder(
  client: ReferralClient,
  order: { orderId: string; referrers: string[] },
  maxPages = 20,
): Promise<Commission[]> {
  const found: Commission[] = [];
  const filters = order.referrers.length > 0 ? order.referrers.map((email) => ({ email })) : [{}];
  for (const filter of filters) {
    for await (const c of client.iterateCommissions(filter, { maxPages })) {
      if (c.transactionId === order.orderId) found.push(c);
    }
  }
  return found;
}
