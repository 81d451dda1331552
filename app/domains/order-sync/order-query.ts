// The Admin GraphQL documents the app reads a shop's orders with, and the
// shape of what they answer. One page holds the fields the intake reads of
// an order webhook; refunds are listed by id only, and a refund the app has
// not stored yet is read in full on its own (REFUND_QUERY), which keeps a
// page's cost low.

/**
 * Orders per page: with 10 line items and 10 refund ids each, a page is
 * requested at about 530 points, under Shopify's 1,000 a query; Shopify
 * charges what the answer held, far less for most orders.
 */
export const ORDERS_PER_PAGE = 25;
export const LINE_ITEMS_PER_ORDER = 10;

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
  refunds(first: 10) { id legacyResourceId createdAt }
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

export const REFUND_QUERY = `#graphql
query OrderRefund($id: ID!) {
  refund(id: $id) {
    id
    legacyResourceId
    createdAt
    refundLineItems(first: 100) { nodes { lineItem { id } subtotalSet { ${MONEY} } totalTaxSet { ${MONEY} } } }
    transactions(first: 20) { nodes { id kind status amountSet { ${MONEY} } } }
    orderAdjustments(first: 20) { nodes { reason amountSet { ${MONEY} } taxAmountSet { ${MONEY} } } }
    refundShippingLines(first: 20) { nodes { subtotalAmountSet { ${MONEY} } taxAmountSet { ${MONEY} } } }
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

export interface GraphqlRefund {
  id: string;
  legacyResourceId: string;
  createdAt: string | null;
  refundLineItems: { nodes: { lineItem: { id: string }; subtotalSet: GraphqlMoney; totalTaxSet: GraphqlMoney }[] };
  transactions: { nodes: { id: string; kind: string; status: string; amountSet: GraphqlMoney }[] };
  orderAdjustments: { nodes: { reason: string | null; amountSet: GraphqlMoney; taxAmountSet: GraphqlMoney }[] };
  refundShippingLines: { nodes: { subtotalAmountSet: GraphqlMoney; taxAmountSet: GraphqlMoney }[] };
}
