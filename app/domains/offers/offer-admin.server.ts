import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";
import { adminCall, type AdminCallDeps } from "../../platform/shopify-admin/admin-call.server";
import type { DiscountMutation } from "./discount-input";

// The Admin GraphQL operations of the friend's offer. Each returns plain
// results; a refusal Shopify states per field (userErrors) comes back as
// data the caller decides on, anything else throws AdminCallError.

export interface ShopifyUserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

export const CODES_PER_BULK_ADD = 250;

const userErrorFields = "userErrors { field message code }";
const firstCode = "codes(first: 1) { nodes { id code } }";

const CREATE = {
  basic: `#graphql
mutation ReferralBridgeOfferCreateBasic($input: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $input) {
    codeDiscountNode { id codeDiscount { ... on DiscountCodeBasic { ${firstCode} } } }
    ${userErrorFields}
  }
}`,
  free_shipping: `#graphql
mutation ReferralBridgeOfferCreateFreeShipping($input: DiscountCodeFreeShippingInput!) {
  discountCodeFreeShippingCreate(freeShippingCodeDiscount: $input) {
    codeDiscountNode { id codeDiscount { ... on DiscountCodeFreeShipping { ${firstCode} } } }
    ${userErrorFields}
  }
}`,
} as const;

const UPDATE = {
  basic: `#graphql
mutation ReferralBridgeOfferUpdateBasic($id: ID!, $input: DiscountCodeBasicInput!) {
  discountCodeBasicUpdate(id: $id, basicCodeDiscount: $input) { codeDiscountNode { id } ${userErrorFields} }
}`,
  free_shipping: `#graphql
mutation ReferralBridgeOfferUpdateFreeShipping($id: ID!, $input: DiscountCodeFreeShippingInput!) {
  discountCodeFreeShippingUpdate(id: $id, freeShippingCodeDiscount: $input) { codeDiscountNode { id } ${userErrorFields} }
}`,
} as const;

const CREATE_SEGMENT = `#graphql
mutation ReferralBridgeOfferSegment($name: String!, $query: String!) {
  segmentCreate(name: $name, query: $query) { segment { id } userErrors { field message } }
}`;

const BULK_ADD = `#graphql
mutation ReferralBridgeOfferAddCodes($discountId: ID!, $codes: [DiscountRedeemCodeInput!]!) {
  discountRedeemCodeBulkAdd(discountId: $discountId, codes: $codes) { bulkCreation { id done } ${userErrorFields} }
}`;

const BULK_STATUS = `#graphql
query ReferralBridgeOfferBulkStatus($id: ID!, $after: String) {
  discountRedeemCodeBulkCreation(id: $id) {
    done
    codesCount
    importedCount
    failedCount
    codes(first: 250, after: $after) {
      nodes { code discountRedeemCode { id } errors { code message } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

const CODE_OWNER = `#graphql
query ReferralBridgeOfferCodeOwner($code: String!) {
  codeDiscountNodeByCode(code: $code) { id }
}`;

const DELETE_CODES = `#graphql
mutation ReferralBridgeOfferRemoveCodes($discountId: ID!, $ids: [ID!]) {
  discountCodeRedeemCodeBulkDelete(discountId: $discountId, ids: $ids) { job { id } ${userErrorFields} }
}`;

const ACTIVATE = `#graphql
mutation ReferralBridgeOfferActivate($id: ID!) {
  discountCodeActivate(id: $id) { codeDiscountNode { id } ${userErrorFields} }
}`;

const DEACTIVATE = `#graphql
mutation ReferralBridgeOfferDeactivate($id: ID!) {
  discountCodeDeactivate(id: $id) { codeDiscountNode { id } ${userErrorFields} }
}`;

const DELETE_DISCOUNT = `#graphql
mutation ReferralBridgeOfferDelete($id: ID!) {
  discountCodeDelete(id: $id) { deletedCodeDiscountId ${userErrorFields} }
}`;

type Created = { codeDiscountNode: { id: string; codeDiscount: { codes?: { nodes: { id: string; code: string }[] } } } | null; userErrors: ShopifyUserError[] };

export type CreateResult =
  | { ok: true; discountId: string; redeemCodeId: string | null }
  | { ok: false; codeTaken: boolean; errors: ShopifyUserError[] };

/** A code Shopify refused because another discount of the shop already has it. */
export function isTakenError(error: ShopifyUserError): boolean {
  return error.code === "TAKEN" || /must be unique|already (been )?taken|already exists/i.test(error.message);
}

export async function createDiscount(deps: AdminCallDeps, mutation: DiscountMutation, input: Record<string, unknown>): Promise<CreateResult> {
  const data = await adminCall<Record<string, Created>>(deps, CREATE[mutation], { input });
  const payload = data[mutation === "basic" ? "discountCodeBasicCreate" : "discountCodeFreeShippingCreate"]!;
  if (payload.userErrors.length > 0 || !payload.codeDiscountNode) {
    const onCode = payload.userErrors.some((e) => isTakenError(e) && (e.field ?? []).includes("code"));
    return { ok: false, codeTaken: onCode, errors: payload.userErrors };
  }
  const node = payload.codeDiscountNode;
  return { ok: true, discountId: node.id, redeemCodeId: node.codeDiscount.codes?.nodes[0]?.id ?? null };
}

export async function updateDiscount(
  deps: AdminCallDeps,
  mutation: DiscountMutation,
  id: string,
  input: Record<string, unknown>,
): Promise<ShopifyUserError[]> {
  const data = await adminCall<Record<string, { userErrors: ShopifyUserError[] }>>(deps, UPDATE[mutation], { id, input });
  return data[mutation === "basic" ? "discountCodeBasicUpdate" : "discountCodeFreeShippingUpdate"]!.userErrors;
}

export async function createSegment(deps: AdminCallDeps, name: string, query: string): Promise<string> {
  const data = await adminCall<{ segmentCreate: { segment: { id: string } | null; userErrors: ShopifyUserError[] } }>(deps, CREATE_SEGMENT, {
    name,
    query,
  });
  const { segment, userErrors } = data.segmentCreate;
  if (!segment) throw new AdminCallError(`Shopify refused the customer segment: ${userErrors.map((e) => e.message).join("; ")}`, false);
  return segment.id;
}

export type BulkAddResult = { ok: true; bulkCreationId: string } | { ok: false; errors: ShopifyUserError[] };

export async function addCodes(deps: AdminCallDeps, discountId: string, codes: string[]): Promise<BulkAddResult> {
  if (codes.length > CODES_PER_BULK_ADD) throw new Error(`at most ${CODES_PER_BULK_ADD} codes a call`);
  const data = await adminCall<{ discountRedeemCodeBulkAdd: { bulkCreation: { id: string } | null; userErrors: ShopifyUserError[] } }>(
    deps,
    BULK_ADD,
    { discountId, codes: codes.map((code) => ({ code })) },
  );
  const { bulkCreation, userErrors } = data.discountRedeemCodeBulkAdd;
  return bulkCreation ? { ok: true, bulkCreationId: bulkCreation.id } : { ok: false, errors: userErrors };
}

export interface CodeResult {
  code: string;
  redeemCodeId: string | null;
  errors: ShopifyUserError[];
}

/** The codes of a bulk creation, once Shopify has run it; null while it is still queued. */
export async function bulkCreationResults(deps: AdminCallDeps, id: string): Promise<CodeResult[] | null> {
  type Status = {
    discountRedeemCodeBulkCreation: {
      done: boolean;
      codes: {
        nodes: { code: string; discountRedeemCode: { id: string } | null; errors: ShopifyUserError[] }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
    } | null;
  };
  const results: CodeResult[] = [];
  let after: string | null = null;
  do {
    const data: Status = await adminCall<Status>(deps, BULK_STATUS, { id, after });
    const creation = data.discountRedeemCodeBulkCreation;
    if (!creation) throw new AdminCallError(`Shopify has no bulk code creation ${id}`, false);
    if (!creation.done) return null;
    for (const node of creation.codes.nodes) {
      results.push({ code: node.code, redeemCodeId: node.discountRedeemCode?.id ?? null, errors: node.errors });
    }
    after = creation.codes.pageInfo.hasNextPage ? creation.codes.pageInfo.endCursor : null;
  } while (after);
  return results;
}

/** The discount that holds a code in the shop, or null. */
export async function discountHoldingCode(deps: AdminCallDeps, code: string): Promise<string | null> {
  const data = await adminCall<{ codeDiscountNodeByCode: { id: string } | null }>(deps, CODE_OWNER, { code });
  return data.codeDiscountNodeByCode?.id ?? null;
}

export async function removeCodes(deps: AdminCallDeps, discountId: string, redeemCodeIds: string[]): Promise<ShopifyUserError[]> {
  const data = await adminCall<{ discountCodeRedeemCodeBulkDelete: { userErrors: ShopifyUserError[] } }>(deps, DELETE_CODES, {
    discountId,
    ids: redeemCodeIds,
  });
  return data.discountCodeRedeemCodeBulkDelete.userErrors;
}

export async function setDiscountActive(deps: AdminCallDeps, id: string, active: boolean): Promise<ShopifyUserError[]> {
  const data = await adminCall<Record<string, { userErrors: ShopifyUserError[] }>>(deps, active ? ACTIVATE : DEACTIVATE, { id });
  return data[active ? "discountCodeActivate" : "discountCodeDeactivate"]!.userErrors;
}

export async function deleteDiscount(deps: AdminCallDeps, id: string): Promise<ShopifyUserError[]> {
  const data = await adminCall<{ discountCodeDelete: { userErrors: ShopifyUserError[] } }>(deps, DELETE_DISCOUNT, { id });
  return data.discountCodeDelete.userErrors;
}
