// The shop, its customers and the sandbox service shared by the proxy and
// customer account tests.
import prisma from "../../../../app/wiring/db.server";
import { forgetShareLinks } from "../../../../app/wiring/storefront-context.server";
import type { SandboxHandle } from "../../../../sandbox/server";
import { resetDatabase } from "../../../support/database";
import { connectShop } from "../../../support/pipeline";
import { installShop } from "../../../support/sessions";
import { adminApi } from "./admin-api-stub";
import { SHOP } from "./requests";

/** Shopify customers of the shop (ids as Shopify numbers them). */
export const CUSTOMERS = {
  /** An ambassador of the seeded program. */
  alice: { id: "7001", email: "alice@example.com", firstName: "Alice" },
  /** Another ambassador: nobody may read his links through Alice's session. */
  bob: { id: "7002", email: "bob@example.com", firstName: "Bob" },
  /** Not an ambassador yet. */
  nina: { id: "7003", email: "nina@example.com", firstName: "Nina" },
  /** Signed up with a phone number only. */
  phoneOnly: { id: "7004", email: null, firstName: "Pat" },
} as const;

export const OTHER_SHOP = "another-shop.myshopify.com";

export async function resetWorld(sandbox: SandboxHandle): Promise<void> {
  await resetDatabase();
  sandbox.reset();
  adminApi.reset();
  for (const customer of Object.values(CUSTOMERS)) adminApi.addCustomer(customer.id, customer);
  for (const shop of [SHOP, OTHER_SHOP]) forgetShareLinks(shop);
}

export interface ShopSetup {
  shop?: string;
  autoEnrol?: boolean;
  newAmbassadorGroup?: string | null;
  campaignUids?: string;
  /** false: the app is installed but no referral service is connected. */
  connected?: boolean;
  /** false: no offline session (the app was uninstalled). */
  installed?: boolean;
}

export async function setUpShop(sandbox: SandboxHandle, setup: ShopSetup = {}): Promise<void> {
  const shop = setup.shop ?? SHOP;
  if (setup.installed !== false) await installShop(shop);
  if (setup.connected === false) {
    await prisma.shop.create({ data: { shop } });
    return;
  }
  await connectShop(sandbox, { shop, campaignUids: setup.campaignUids ?? "1001,1003", installed: setup.installed !== false });
  await prisma.shop.update({
    where: { shop },
    data: { autoEnrol: setup.autoEnrol ?? false, newAmbassadorGroup: setup.newAmbassadorGroup ?? null },
  });
}

/** The v2 operations the sandbox has answered so far, in order. */
export const serviceOperations = (sandbox: SandboxHandle) => sandbox.ledger().requests.map((r) => r.operation);

export const sandboxAmbassador = (sandbox: SandboxHandle, email: string) =>
  sandbox.ledger().ambassadors.find((a) => a.email === email);
