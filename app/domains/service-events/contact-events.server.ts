import type { PrismaClient } from "@prisma/client";
import { enrolmentKey, queueFlowTriggerIfOn } from "../flow-triggers";
import { ambassadorEnrolled } from "../flow-triggers";
import { askShareLinkSync } from "../customer-metafields";
import { enqueueAmbassadorCode } from "../offers";
import { emailKey } from "../../platform/text/email-key";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";
import { findCustomerByEmail, tagCustomer } from "./shopify-customers.server";
import { contactDataSchema } from "./webhook-envelope";
import { ignored, processed, unsettled, type EventResult } from "./event-result";

/** The tag a Shopify customer gets when the service enrols them as an ambassador. */
export const AMBASSADOR_TAG = "referral-ambassador";

/**
 * contact-created: the new ambassador's code joins the shop's friend's offers
 * at once (a job of its own), and, when the shop asks for it, the Shopify
 * customer with that email is tagged.
 */
export async function applyContactCreated(
  deps: { db: PrismaClient; adminForShop: AdminForShop },
  shop: string,
  eventData: unknown,
): Promise<EventResult> {
  const parsed = contactDataSchema.safeParse(eventData);
  const email = parsed.success ? emailKey(parsed.data.contact.email) : null;
  if (email) await enqueueAmbassadorCode(deps.db, shop, email);
  if (email) {
    const contact = (eventData as { contact?: { internal_id?: unknown; memorable_url?: unknown } } | null)?.contact;
    const text = (value: unknown) => (typeof value === "string" ? value : null);
    // internal_id is the uid the app enrols customers with: their Shopify customer id.
    const enrolled = { customerId: text(contact?.internal_id), email, shareLink: text(contact?.memorable_url), how: "service_webhook" } as const;
    await queueFlowTriggerIfOn(deps.db, shop, () => ambassadorEnrolled(enrolled), enrolmentKey(email));
  }
  // The share link metafields on the customer (a job of their own; nothing when the shop keeps none).
  if (email) await askShareLinkSync(deps.db, shop, email, { reason: "contact-created" });
  const settings = await deps.db.shop.findUnique({ where: { shop }, select: { tagContacts: true } });
  if (!settings?.tagContacts) return processed("New ambassador; tagging customers is turned off.");
  if (!email) return ignored("The event names no contact email.");
  const connection = await deps.adminForShop(shop);
  if (!connection.ok) return unsettled({ type: "fail", reason: connection.reason });
  try {
    const customer = await findCustomerByEmail(connection.admin, email);
    if (!customer) return ignored(`No Shopify customer has the email ${email}; nothing to tag.`);
    await tagCustomer(connection.admin, customer.id, [AMBASSADOR_TAG]);
    return processed(`Tagged the Shopify customer ${email} "${AMBASSADOR_TAG}".`);
  } catch (error) {
    // Adding a tag twice does no harm, so any failure is simply tried again.
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
