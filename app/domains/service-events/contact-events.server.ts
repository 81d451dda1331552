import type { PrismaClient } from "@prisma/client";
import { enrolmentKey, flowTriggersOn, queueFlowTrigger } from "../flow-triggers";
import { ambassadorEnrolled } from "../flow-triggers";
import { askShareLinkSync } from "../customer-metafields";
import { enqueueAmbassadorCode } from "../offers";
import { emailKey } from "../../platform/text/email-key";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";
import { serviceCustomerGid } from "../../platform/shopify-admin/customer-identity";
import { findAmbassadorCustomer, tagCustomer } from "./shopify-customers.server";
import { contactDataSchema } from "./webhook-envelope";
import { ignored, processed, unsettled, type EventResult } from "./event-result";

/** The tag a Shopify customer gets when the service enrols them as an ambassador. */
export const AMBASSADOR_TAG = "referral-ambassador";

type ContactDeps = { db: PrismaClient; adminForShop: AdminForShop; appSecret: string };

/**
 * The Shopify customer the new ambassador is, for the Flow trigger: the one
 * the service names by internal_id only when it has the ambassador's email,
 * else the one with that email Shopify verified; null when none is (or the
 * app has no access to ask). A failed look-up throws, to be tried again.
 */
async function enrolledCustomer(deps: ContactDeps, shop: string, email: string, namedId: string | null): Promise<string | null> {
  const connection = await deps.adminForShop(shop);
  if (!connection.ok) return null;
  const choice = await findAmbassadorCustomer(connection.admin, email, namedId);
  return choice.ok ? choice.customer.id : null;
}

/**
 * contact-created: the new ambassador's code joins the shop's friend's offers
 * at once (a job of its own), and, when the shop asks for it, the Shopify
 * customer who is the ambassador (chooseCustomer) is tagged.
 */
export async function applyContactCreated(deps: ContactDeps, shop: string, eventData: unknown): Promise<EventResult> {
  const parsed = contactDataSchema.safeParse(eventData);
  const contact = parsed.success ? parsed.data.contact : null;
  const email = emailKey(contact?.email);
  const namedId = serviceCustomerGid(contact?.internal_id);
  try {
    if (email) await enqueueAmbassadorCode(deps.db, shop, email);
    if (email && (await flowTriggersOn(deps.db, shop))) {
      const customerId = await enrolledCustomer(deps, shop, email, namedId);
      const link = (eventData as { contact?: { memorable_url?: unknown } } | null)?.contact?.memorable_url;
      const shareLink = typeof link === "string" ? link : null;
      await queueFlowTrigger(deps.db, shop, ambassadorEnrolled({ customerId, email, shareLink, how: "service_webhook" }), enrolmentKey(email, deps.appSecret));
    }
    // The share link metafields on the customer (a job of their own; nothing when the shop keeps none).
    if (email) await askShareLinkSync(deps.db, shop, email, { reason: "contact-created" });
    const settings = await deps.db.shop.findUnique({ where: { shop }, select: { tagContacts: true } });
    if (!settings?.tagContacts) return processed("New ambassador; tagging customers is turned off.");
    if (!email) return ignored("The event names no contact email.");
    const connection = await deps.adminForShop(shop);
    if (!connection.ok) return unsettled({ type: "fail", reason: connection.reason });
    const customer = await findAmbassadorCustomer(connection.admin, email, namedId);
    if (!customer.ok && customer.why === "unverified") {
      return ignored(`The Shopify customer with the email ${email} has not verified it, so it may not be the ambassador; not tagged.`);
    }
    if (!customer.ok) return ignored(`No Shopify customer has the email ${email}; nothing to tag.`);
    await tagCustomer(connection.admin, customer.customer.id, [AMBASSADOR_TAG]);
    return processed(`Tagged the Shopify customer ${email} "${AMBASSADOR_TAG}".`);
  } catch (error) {
    // Every step is keyed or harmless twice (a job per key, adding a tag again), so any failure is simply tried again.
    if (error instanceof AdminCallError) return unsettled({ type: "retry", reason: error.message });
    throw error;
  }
}

/**
 * contact-status-updated: an ambassador banned or unsubscribed has their
 * share link taken off their Shopify customer, one enrolled again gets it
 * back (the job asks the service which holds now).
 */
export async function applyContactStatus(db: PrismaClient, shop: string, eventData: unknown): Promise<EventResult> {
  const parsed = contactDataSchema.safeParse(eventData);
  const email = parsed.success ? emailKey(parsed.data.contact.email) : null;
  if (!email) return ignored("The event names no contact email.");
  const queued = await askShareLinkSync(db, shop, email, { reason: "contact-status" });
  return processed(queued ? "The share link on the Shopify customer is brought in step." : "Nothing to do: the shop keeps no share link on its customers, or it is already being brought in step.");
}
