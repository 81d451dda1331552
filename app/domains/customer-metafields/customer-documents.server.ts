import { adminCall, type AdminCallDeps } from "../../platform/shopify-admin/admin-call.server";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";
import { SHARE_LINK_FIELDS, SHARE_LINK_NAMESPACE, type ShareLinkValues } from "./share-link-fields";
import { customerEmailQuery } from "../../platform/shopify-admin/customer-search";
import { chooseCustomer, CUSTOMER_IDENTITY_FIELDS, type CustomerChoice, type CustomerIdentity } from "../../platform/shopify-admin/customer-identity";

// The Admin GraphQL documents of the share link metafields: the customer with
// what it carries now, writing both fields (metafieldsSet) and removing them
// (metafieldsDelete). Every call goes through adminCall, paced by the shop's
// query cost like the app's other Admin calls.

/** A Shopify customer and the share link metafields it carries now (null: none). */
export interface CustomerShareLinkState {
  id: string;
  email: string | null;
  current: { link: string | null; code: string | null };
}

const CUSTOMER_FIELDS = `
    ${CUSTOMER_IDENTITY_FIELDS}
    shareLink: metafield(namespace: "${SHARE_LINK_NAMESPACE}", key: "${SHARE_LINK_FIELDS.link.key}") { value }
    shareCode: metafield(namespace: "${SHARE_LINK_NAMESPACE}", key: "${SHARE_LINK_FIELDS.code.key}") { value }`;

const CUSTOMER_BY_ID = `#graphql
query ReferralBridgeShareLinkCustomer($id: ID!) {
  customer(id: $id) {${CUSTOMER_FIELDS}
  }
}`;

const CUSTOMERS_BY_EMAIL = `#graphql
query ReferralBridgeShareLinkCustomers($query: String!) {
  customers(first: 5, query: $query) {
    nodes {${CUSTOMER_FIELDS}
    }
  }
}`;

interface CustomerNode extends CustomerIdentity {
  shareLink: { value: string } | null;
  shareCode: { value: string } | null;
}

const stateOf = (node: CustomerNode): CustomerShareLinkState => ({
  id: node.id,
  email: node.defaultEmailAddress?.emailAddress ?? null,
  current: { link: node.shareLink?.value ?? null, code: node.shareCode?.value ?? null },
});

/**
 * The ambassador's Shopify customer (chooseCustomer): the one with this id
 * (a signed-in customer the storefront saw) when it has this email and
 * Shopify verified it, else the one with this email Shopify verified.
 * "unverified" when customers have the email and none verified it.
 */
export async function findShareLinkCustomer(deps: AdminCallDeps, email: string, customerId?: string): Promise<CustomerChoice<CustomerShareLinkState>> {
  if (customerId) {
    const { customer } = await adminCall<{ customer: CustomerNode | null }>(deps, CUSTOMER_BY_ID, { id: customerId });
    const byId = chooseCustomer(email, customer ? [customer] : []);
    if (byId.ok) return { ok: true, customer: stateOf(byId.customer) };
  }
  const { customers } = await adminCall<{ customers: { nodes: CustomerNode[] } }>(deps, CUSTOMERS_BY_EMAIL, { query: customerEmailQuery(email) });
  const choice = chooseCustomer(email, customers.nodes);
  return choice.ok ? { ok: true, customer: stateOf(choice.customer) } : choice;
}

interface UserError {
  field: string[] | null;
  message: string;
  code?: string | null;
}

const refusal = (errors: UserError[]) => errors.map((e) => (e.code ? `${e.message} (${e.code})` : e.message)).join("; ");

const SET = `#graphql
mutation ReferralBridgeSetShareLink($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) {
    metafields { key namespace value }
    userErrors { field message code }
  }
}`;

/** Writes the link and the code on the customer, both in one call (Shopify sets them together or not at all). */
export async function setShareLinkMetafields(deps: AdminCallDeps, customerId: string, values: ShareLinkValues): Promise<void> {
  const field = (which: keyof typeof SHARE_LINK_FIELDS, value: string) => ({
    ownerId: customerId,
    namespace: SHARE_LINK_NAMESPACE,
    key: SHARE_LINK_FIELDS[which].key,
    type: SHARE_LINK_FIELDS[which].type,
    value,
  });
  const data = await adminCall<{ metafieldsSet: { userErrors: UserError[] } }>(deps, SET, {
    metafields: [field("link", values.link), field("code", values.code)],
  });
  if (data.metafieldsSet.userErrors.length > 0) throw new AdminCallError(`Shopify refused the share link: ${refusal(data.metafieldsSet.userErrors)}`, false);
}

const DELETE = `#graphql
mutation ReferralBridgeDeleteShareLink($metafields: [MetafieldIdentifierInput!]!) {
  metafieldsDelete(metafields: $metafields) {
    deletedMetafields { key namespace ownerId }
    userErrors { field message }
  }
}`;

/** Removes both fields from the customer; removing a field it does not carry is no error. */
export async function deleteShareLinkMetafields(deps: AdminCallDeps, customerId: string): Promise<void> {
  const data = await adminCall<{ metafieldsDelete: { userErrors: UserError[] } }>(deps, DELETE, {
    metafields: Object.values(SHARE_LINK_FIELDS).map(({ key }) => ({ ownerId: customerId, namespace: SHARE_LINK_NAMESPACE, key })),
  });
  if (data.metafieldsDelete.userErrors.length > 0) throw new AdminCallError(`Shopify refused to remove the share link: ${refusal(data.metafieldsDelete.userErrors)}`, false);
}
