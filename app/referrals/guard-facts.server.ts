import type { Prisma, PrismaClient } from "@prisma/client";
import type { ReferralClient } from "../referral-api";
import { addressKey, type BuyerFacts } from "./order-event";
import type { CodeDirectory, CodeOwner } from "./code-directory.server";
import type { GuardFacts, ReferrerSide } from "./guard";
import type { GuardSettings } from "./guard-settings";

// The facts the guard compares, gathered from the shop's own order records
// and the referral service (the code owner's profile, cached).

/** How far back the guard looks at the shop's orders for its velocity rules: the day before the order (app/privacy/retention.server.ts builds on it). */
export const GUARD_WINDOW_MS = 86_400_000;
const DAY_MS = GUARD_WINDOW_MS;
/** Orders that count as referred for the velocity rules. */
const REFERRED = ["recorded", "needs_review", "reversed"];

export interface GuardInput {
  db: PrismaClient;
  client: ReferralClient;
  codes: CodeDirectory;
  shop: string;
  orderId: string;
  /** When this order was placed: the velocity rules count the referred orders placed in the day before it. */
  placedAt: Date;
  settings: GuardSettings;
  buyer: { email: string; customerId?: string; ip?: string } & BuyerFacts;
  code: string;
  owner?: CodeOwner;
}

async function referrerSide(input: GuardInput, owner: CodeOwner): Promise<ReferrerSide> {
  const { db, shop, settings } = input;
  const wantsProfile = settings.modes.self_address !== "off" || settings.modes.self_customer !== "off";
  const profile = wantsProfile ? await input.codes.ownerProfile(input.client, shop, owner.email) : null;
  const emails = [...new Set([owner.email, owner.email.toLowerCase()])];
  const own = await db.orderRecord.findMany({
    where: { shop, email: { in: emails }, orderId: { not: input.orderId } },
    select: { customerId: true, browserIp: true },
    take: 200,
  });
  const customerIds = [owner.uid, profile?.uid, ...own.map((o) => o.customerId)].filter((v): v is string => Boolean(v));
  const address = profile ? addressKey({ address1: profile.street, zip: profile.zip }) : undefined;
  return {
    email: owner.email,
    customerIds: [...new Set(customerIds)],
    addresses: address ? [address] : [],
    phones: profile?.phone ? [profile.phone] : [],
    ips: [...new Set(own.map((o) => o.browserIp).filter((v): v is string => Boolean(v)))],
  };
}

export async function gatherGuardFacts(input: GuardInput): Promise<GuardFacts> {
  const { db, shop, orderId, buyer, settings } = input;
  const placed = { gte: new Date(input.placedAt.getTime() - DAY_MS), lte: input.placedAt };
  // Every record has placedAt (the intake sets it; older rows got their createdAt), so each look-up is one index range.
  const inTheDayBefore: Prisma.OrderRecordWhereInput = { placedAt: placed };
  const byEmail = { in: [...new Set([buyer.email, buyer.email.toLowerCase()])] };
  const codes = [...new Set([input.code, input.code.toUpperCase(), input.code.toLowerCase()])];
  // The velocity rules only ask whether the limit is reached: counting stops there, so a busy IP or code costs no more than the limit.
  const upToLimit = (where: Prisma.OrderRecordWhereInput) =>
    db.orderRecord.count({ where: { shop, orderId: { not: orderId }, status: { in: REFERRED }, AND: [inTheDayBefore, where] }, take: settings.dailyLimit });
  // Each count is one index range; an OR of two columns would make the database read every order of the shop (or of the day).
  const [earlierById, earlierByEmail, fromIp, withShortCode, withCoupon, referrer] = await Promise.all([
    settings.modes.returning_customer === "off" || !buyer.customerId ? 0 : db.orderRecord.count({ where: { shop, orderId: { not: orderId }, customerId: buyer.customerId } }),
    settings.modes.returning_customer === "off"
      ? 0
      : db.orderRecord.count({
          // Orders the first count has already counted are left out.
          where: { shop, orderId: { not: orderId }, email: byEmail, ...(buyer.customerId ? { OR: [{ customerId: null }, { customerId: { not: buyer.customerId } }] } : {}) },
        }),
    settings.modes.velocity_ip === "off" || !buyer.ip ? 0 : upToLimit({ browserIp: buyer.ip }),
    settings.modes.velocity_code === "off" ? 0 : upToLimit({ shortCode: { in: codes } }),
    settings.modes.velocity_code === "off" ? 0 : upToLimit({ couponCode: { in: codes } }),
    input.owner ? referrerSide(input, input.owner) : undefined,
  ]);
  const earlier = earlierById + earlierByEmail;
  const withCode = Math.min(settings.dailyLimit, withShortCode + withCoupon);
  return {
    buyer: {
      email: buyer.email,
      customerId: buyer.customerId,
      address: buyer.address,
      phone: buyer.phone,
      ip: buyer.ip,
      earlierOrders: Math.max(earlier, (buyer.ordersCount ?? 1) - 1),
    },
    referrer,
    referredFromIpToday: fromIp,
    referredWithCodeToday: withCode,
  };
}
