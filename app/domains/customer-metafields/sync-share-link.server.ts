import type { PrismaClient } from "@prisma/client";
import { isReferralApiError, type ReferralClient } from "../../platform/referral-api";
import type { AdminCallDeps } from "../../platform/shopify-admin/admin-call.server";
import { deleteShareLinkMetafields, findShareLinkCustomer, setShareLinkMetafields } from "./customer-documents.server";
import { shareLinkValues, type ShareLinkValues } from "./share-link-fields";

export interface ShareLinkSyncDeps {
  db: PrismaClient;
  client: ReferralClient;
  admin: AdminCallDeps;
}

export type ShareLinkSyncResult =
  | { kind: "written" | "removed"; customerId: string; values: ShareLinkValues | null }
  | { kind: "unchanged"; customerId: string; values: ShareLinkValues | null }
  | { kind: "no_customer"; values: ShareLinkValues | null };

/** What the service says the ambassador's link is now; null when they are not (or no longer) an active ambassador. */
async function valuesAtService(client: ReferralClient, email: string, tracked: string[]): Promise<ShareLinkValues | null> {
  try {
    const { ambassador } = await client.getAmbassador({ email });
    return shareLinkValues(ambassador, tracked);
  } catch (error) {
    if (isReferralApiError(error) && error.kind === "not_found") return null;
    throw error;
  }
}

const trackedOf = (campaignUids: string) =>
  campaignUids
    .split(",")
    .map((uid) => uid.trim())
    .filter(Boolean);

/**
 * One ambassador's share link metafields brought in step: the link and code
 * the service gives now are written to their Shopify customer when it does
 * not carry them already; an ambassador no longer active (or gone) has both
 * removed. What was written is kept (CustomerShareLink) so that a storefront
 * look-up finding the same link queues nothing.
 */
export async function syncShareLink(deps: ShareLinkSyncDeps, shop: string, email: string, customerId?: string): Promise<ShareLinkSyncResult> {
  const settings = await deps.db.shop.findUnique({ where: { shop }, select: { campaignUids: true } });
  const values = await valuesAtService(deps.client, email, trackedOf(settings?.campaignUids ?? ""));
  const choice = await findShareLinkCustomer(deps.admin, email, customerId);
  if (!choice.ok) {
    const detail =
      choice.why === "unverified"
        ? "The Shopify customer with this email has not verified it, so it may not be the ambassador; the share link is not written to it."
        : "No Shopify customer has this email.";
    await keep(deps.db, shop, email, { customerId: null, values: null, changed: false, detail });
    return { kind: "no_customer", values };
  }
  const customer = choice.customer;
  const { current } = customer;
  let kind: "written" | "removed" | "unchanged" = "unchanged";
  if (values && (current.link !== values.link || current.code !== values.code)) {
    await setShareLinkMetafields(deps.admin, customer.id, values);
    kind = "written";
  } else if (!values && (current.link !== null || current.code !== null)) {
    await deleteShareLinkMetafields(deps.admin, customer.id);
    kind = "removed";
  }
  await keep(deps.db, shop, email, { customerId: customer.id, values, changed: kind !== "unchanged", detail: null });
  return { kind, customerId: customer.id, values };
}

async function keep(
  db: PrismaClient,
  shop: string,
  email: string,
  state: { customerId: string | null; values: ShareLinkValues | null; changed: boolean; detail: string | null },
): Promise<void> {
  const data = { customerId: state.customerId, link: state.values?.link ?? null, code: state.values?.code ?? null, detail: state.detail };
  const lower = email.toLowerCase();
  await db.customerShareLink.upsert({
    where: { shop_email: { shop, email: lower } },
    create: { shop, email: lower, ...data, version: 1 },
    // A new version for every look, so the next ask is a job of its own.
    update: { ...data, version: { increment: 1 } },
  });
}

/** Why the last job for this ambassador stopped, in the merchant's words (what was written stays as it was). */
export async function noteShareLinkProblem(db: PrismaClient, shop: string, email: string, detail: string): Promise<void> {
  const lower = email.toLowerCase();
  await db.customerShareLink.upsert({ where: { shop_email: { shop, email: lower } }, create: { shop, email: lower, detail }, update: { detail } });
}
