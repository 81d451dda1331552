// The large data set the admin benchmark loads its pages with: a shop's
// commissions and ambassadors at the referral service (made through its
// interface, as the app's own calls would), and 90 days of the shop's orders
// in the app's database.
import type { PrismaClient } from "@prisma/client";
import { createReferralClient } from "../../app/platform/referral-api";

export const DATA_SET = { commissions: 1_000, ambassadors: 200, days: 90 } as const;

/** An ambassador of the data set, for the ambassador page. */
export const SAMPLE_AMBASSADOR = "ambassador7@example.com";

const STATUSES = [
  ...Array<string>(14).fill("recorded"),
  ...Array<string>(4).fill("not_referred"),
  "failed",
  "needs_review",
  "blocked",
  "reversed",
];

export async function addServiceData(service: { baseUrl: string; username: string; token: string }, campaignUid: string): Promise<void> {
  const client = createReferralClient({ ...service, network: { allowLoopback: true } });
  const queue = Array.from({ length: DATA_SET.commissions }, (_, i) => i);
  // A few calls in flight: the sandbox answers each in a millisecond or two.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        await client.addCommission({
          email: `ambassador${i % DATA_SET.ambassadors}@example.com`,
          autoCreate: true,
          campaignUid,
          amount: (4 + ((i * 37) % 60) / 4).toFixed(2),
          revenue: (40 + ((i * 53) % 600) / 2).toFixed(2),
          customerEmail: `friend${i}@example.com`,
          // About a third wait for the merchant's decision.
          isApproved: i % 3 !== 0,
        });
      }
    })
  );
}

/** 90 days of orders, 10 to 34 a day, in the states the Activity and Overview pages show. */
export async function addOrderHistory(db: PrismaClient, shop: string, campaignUid: string): Promise<number> {
  const rows = [];
  let n = 0;
  for (let day = 0; day < DATA_SET.days; day++) {
    const count = 10 + ((day * 7) % 25);
    for (let k = 0; k < count; k++, n++) {
      const placedAt = new Date(Date.now() - day * 86_400_000 - k * 1_800_000);
      const status = STATUSES[n % STATUSES.length]!;
      const referred = status !== "not_referred";
      rows.push({
        shop,
        orderId: String(5_800_000_000_000 + n),
        orderName: `#${10_000 + n}`,
        email: `buyer${n}@example.com`,
        emailKey: `buyer${n}@example.com`,
        shortCode: referred ? `AMB${n % DATA_SET.ambassadors}` : null,
        codeSource: referred ? (n % 4 === 0 ? "discount_code" : "cart_attribute") : null,
        campaignUids: referred ? campaignUid : null,
        revenue: (30 + ((n * 29) % 400)).toFixed(2),
        currency: "USD",
        status,
        statusReason: status === "failed" ? "The referral service did not answer (503) after 8 attempts." : null,
        commissionState: status === "recorded" ? (["pending", "approved", "denied"] as const)[n % 3] : null,
        createdAt: placedAt,
        placedAt,
        recordedAt: status === "recorded" ? new Date(placedAt.getTime() + 4_000) : null,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 500) await db.orderRecord.createMany({ data: rows.slice(i, i + 500) });
  return rows.length;
}
