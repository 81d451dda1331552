// The Admin GraphQL documents the app reads a shop's orders with, and the
// shape of what they answer. One page holds the fields the intake reads of
// an order webhook; refunds are listed by id only, and a refund the app has
// not stored yet is read in full on its own (REFUND_QUERY). Whatever a page
// cannot hold (more line items, refunds or refund lines than it asks for) is
// read by the follow-up documents below, never left out.
//
// Shopify prices a query before running it and refuses one above 1,000
// points: a connection costs 2 plus its size times one node, an object 1, a
// scalar 0, so nested sizes multiply (test/platform/shopify-admin/query-cost.test.ts
// prices every document by those rules). The sizes here keep each document
// near 600, well under the limit; Shopify charges what the answer held.

/** Orders per page: one order is 57 points (5 line items at 6, 10 refund ids at 1), a page 2 + 10 × 57 + 1 = 573. */
export const ORDERS_PER_PAGE = 10;
export const LINE_ITEMS_PER_ORDER = 5;
/** Refund ids an order's page lists; an order with this many has its refunds listed again on their own (ORDER_REFUNDS_QUERY). */
export const REFUNDS_PER_ORDER = 10;
/** Shopify lists an order's refunds (a list, not a connection) up to `first`; past this the app cannot be sure it has them all. */
export const MOST_REFUNDS_LISTED = 250;
/** Refund lines on a refund's first read; more are read page by page (REFUND_LINE_ITEMS_QUERY). */
export const REFUND_LINES_PER_READ = 50;

const MONEY = "shopMoney { amount }";

const ORDER_FIELDS = `
  id
  legacyResourceId
  name
  email
  phone
  test
  clientIp
  createdAt
  updatedAt
  processedAt
  cancelledAt
  fullyPaid
  displayFinancialStatus
  taxesIncluded
  currencyCode
  checkoutToken
  customAttributes { key value }
  discountCodes
  customerJourneySummary { firstVisit { landingPage } lastVisit { landingPage } }
  subtotalPriceSet { ${MONEY} }
  totalPriceSet { ${MONEY} }
  customer { id defaultEmailAddress { emailAddress } firstName lastName defaultPhoneNumber { phoneNumber } numberOfOrders }
  billingAddress { firstName lastName }
  shippingAddress { address1 address2 city zip countryCodeV2 phone }
  lineItems(first: ${LINE_ITEMS_PER_ORDER}) {
    nodes { originalTotalSet { ${MONEY} } taxLines { priceSet { ${MONEY} } } }
    pageInfo { hasNextPage endCursor }
  }
  refunds(first: ${REFUNDS_PER_ORDER}) { id legacyResourceId createdAt }
`;

export const ORDERS_QUERY = `#graphql
query OrdersPage($query: String!, $first: Int!, $after: String, $sortKey: OrderSortKeys!) {
  orders(query: $query, first: $first, after: $after, sortKey: $sortKey) {
    nodes { ${ORDER_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const ORDERS_COUNT_QUERY = `#graphql
query OrdersCount($query: String!) {
  ordersCount(query: $query, limit: null) { count precision }
}`;

/** The rest of an order's line items, when it has more than a page holds. */
export const ORDER_LINE_ITEMS_QUERY = `#graphql
query OrderLineItems($id: ID!, $after: String) {
  order(id: $id) {
    lineItems(first: 100, after: $after) {
      nodes { originalTotalSet { ${MONEY} } taxLines { priceSet { ${MONEY} } } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

/** Every refund of an order, when its page listed as many as it holds. */
export const ORDER_REFUNDS_QUERY = `#graphql
query OrderRefunds($id: ID!) {
  order(id: $id) {
    refunds(first: ${MOST_REFUNDS_LISTED}) { id legacyResourceId createdAt }
  }
}`;

const REFUND_LINE = `lineItem { id } subtotalSet { ${MONEY} } totalTaxSet { ${MONEY} }`;

export const REFUND_QUERY = `#graphql
query OrderRefund($id: ID!) {
  refund(id: $id) {
    id
    legacyResourceId
    createdAt
    refundLineItems(first: ${REFUND_LINES_PER_READ}) { nodes { ${REFUND_LINE} } pageInfo { hasNextPage endCursor } }
    transactions(first: 20) { nodes { id kind status amountSet { ${MONEY} } } pageInfo { hasNextPage } }
    orderAdjustments(first: 20) { nodes { reason amountSet { ${MONEY} } taxAmountSet { ${MONEY} } } pageInfo { hasNextPage } }
    refundShippingLines(first: 20) { nodes { subtotalAmountSet { ${MONEY} } taxAmountSet { ${MONEY} } } pageInfo { hasNextPage } }
  }
}`;

/** The rest of a refund's lines, when it has more than its first read holds. */
export const REFUND_LINE_ITEMS_QUERY = `#graphql
query RefundLineItems($id: ID!, $after: String) {
  refund(id: $id) {
    refundLineItems(first: 100, after: $after) { nodes { ${REFUND_LINE} } pageInfo { hasNextPage endCursor } }
  }
}`;

export interface GraphqlMoney {
  shopMoney: { amount: string };
}

export interface GraphqlLineItem {
  originalTotalSet: GraphqlMoney;
  taxLines: { priceSet: GraphqlMoney }[];
}

export interface GraphqlOrder {
  id: string;
  legacyResourceId: string;
  name: string;
  email: string | null;
  phone: string | null;
  test: boolean;
  clientIp: string | null;
  createdAt: string;
  updatedAt: string;
  processedAt: string;
  cancelledAt: string | null;
  fullyPaid: boolean;
  displayFinancialStatus: string | null;
  taxesIncluded: boolean;
  currencyCode: string;
  checkoutToken: string | null;
  customAttributes: { key: string; value: string | null }[];
  discountCodes: string[];
  customerJourneySummary: { firstVisit: { landingPage: string | null } | null; lastVisit: { landingPage: string | null } | null } | null;
  subtotalPriceSet: GraphqlMoney | null;
  totalPriceSet: GraphqlMoney;
  customer: {
    id: string;
    /** Customer.email and Customer.phone are deprecated in 2026-10; these replace them. */
    defaultEmailAddress: { emailAddress: string } | null;
    firstName: string | null;
    lastName: string | null;
    defaultPhoneNumber: { phoneNumber: string } | null;
    numberOfOrders: string;
  } | null;
  billingAddress: { firstName: string | null; lastName: string | null } | null;
  shippingAddress: { address1: string | null; address2: string | null; city: string | null; zip: string | null; countryCodeV2: string | null; phone: string | null } | null;
  lineItems: { nodes: GraphqlLineItem[]; pageInfo: PageInfo };
  refunds: { id: string; legacyResourceId: string; createdAt: string | null }[];
}

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface OrdersPage {
  orders: { nodes: GraphqlOrder[]; pageInfo: PageInfo };
}

export interface GraphqlRefundLine {
  lineItem: { id: string };
  subtotalSet: GraphqlMoney;
  totalTaxSet: GraphqlMoney;
}

export interface GraphqlRefund {
  id: string;
  legacyResourceId: string;
  createdAt: string | null;
  refundLineItems: { nodes: GraphqlRefundLine[]; pageInfo?: PageInfo };
  transactions: { nodes: { id: string; kind: string; status: string; amountSet: GraphqlMoney }[]; pageInfo?: { hasNextPage: boolean } };
  orderAdjustments: { nodes: { reason: string | null; amountSet: GraphqlMoney; taxAmountSet: GraphqlMoney }[]; pageInfo?: { hasNextPage: boolean } };
  refundShippingLines: { nodes: { subtotalAmountSet: GraphqlMoney; taxAmountSet: GraphqlMoney }[]; pageInfo?: { hasNextPage: boolean } };
}
