import { PrismaClient } from "@prisma/client";
import { DEFAULT_SCOPES } from "../../app/wiring/env.server";
import { createAdapter } from "../../app/platform/db/adapter.server";
import { sealToken } from "../../app/platform/crypto/sealing.server";

export const DEMO_SHOP = "referral-demo.myshopify.com";

/**
 * What install and onboarding would leave behind, without Shopify OAuth: an
 * offline session and a connected shop with its settings.
 */
export async function connectDemoShop(options: {
  databaseUrl: string;
  credentialsKey: string;
  service: { baseUrl: string; username: string; token: string };
  campaignUids: string;
  /** Another shop on the same service account (the bench's fairness scenario). */
  shop?: string;
}): Promise<void> {
  const db = new PrismaClient({ adapter: createAdapter(options.databaseUrl) });
  const shop = options.shop ?? DEMO_SHOP;
  try {
    await db.session.create({
      data: {
        id: `offline_${shop}`,
        shop,
        state: "demo",
        isOnline: false,
        scope: DEFAULT_SCOPES,
        accessToken: "shpat_demo_not_a_real_token",
      },
    });
    await db.shop.create({
      data: {
        shop,
        serviceBaseUrl: options.service.baseUrl,
        serviceUsername: options.service.username,
        serviceTokenSealed: sealToken(options.service.token, options.credentialsKey, { shop, column: "Shop.serviceTokenSealed" }),
        companyName: "Demo Outfitters",
        connectionStatus: "connected",
        campaignUids: options.campaignUids,
      },
    });
  } finally {
    await db.$disconnect();
  }
}

export function demoDatabase(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: createAdapter(databaseUrl) });
}
