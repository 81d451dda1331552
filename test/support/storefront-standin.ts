// A shop's Storefront API and Customer Account API on this machine, answering
// as Shopify does: each document is validated against the published 2026-10
// schema (a document that is not valid gets Shopify's errors answer and is
// counted), then run on an in-memory store of carts and customer tokens.
// - Storefront API: POST /api/<version>/graphql.json; cart, cartCreate,
//   cartAttributesUpdate and cartDiscountCodesUpdate as the Storefront API has
//   them (an update replaces the cart's whole attribute list, or code list).
// - Customer Account API: GET /.well-known/customer-account-api (the shop in
//   X-Forwarded-Host, as the app's development switch sends it), then POST
//   /customer/<shop>/api/<version>/graphql with the token in Authorization:
//   401 for a token this shop did not issue.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { execute, parse, validate, type DocumentNode, type GraphQLSchema } from "graphql";
import { listenOnLoopback, type LoopbackServer } from "./loopback-server";
import { customerAccountSchema, storefrontSchema } from "./storefront-schemas";

export interface StandInCart {
  id: string;
  attributes: { key: string; value: string }[];
  discountCodes: { code: string; applicable: boolean }[];
}

export interface StorefrontCall {
  api: "storefront" | "customer";
  /** The root fields the document asked for (cartCreate, customer, ...). */
  fields: string[];
  variables: Record<string, unknown>;
  /** The schema's validation errors; empty for a valid document. */
  invalid: string[];
  status: number;
}

export interface StorefrontStandIn extends LoopbackServer {
  /** The Storefront API's origin (Hydrogen's storeDomain). */
  shop: string;
  calls: StorefrontCall[];
  carts: Map<string, StandInCart>;
  /** The discount codes the shop has (case-insensitive): the others are not applicable. */
  discountCodes: Set<string>;
  /** A Customer Account API access token for a customer of `shop` (gid://shopify/Customer/<id>). */
  issueCustomerToken(shop: string, customerId: string): string;
  /** Every valid token stops working (a customer signed out everywhere). */
  revokeTokens(): void;
}

const money = { amount: "0.0", currencyCode: "USD" };

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function rootFields(document: DocumentNode): string[] {
  return document.definitions.flatMap((d) => (d.kind === "OperationDefinition" ? d.selectionSet.selections.flatMap((s) => (s.kind === "Field" ? [s.name.value] : [])) : []));
}

export async function startStorefrontStandIn(options: { shop: string }): Promise<StorefrontStandIn> {
  const calls: StorefrontCall[] = [];
  const carts = new Map<string, StandInCart>();
  const discountCodes = new Set<string>();
  /** token -> the shop that issued it and the customer's gid. */
  const tokens = new Map<string, { shop: string; customerGid: string }>();

  const applicable = (code: string) => [...discountCodes].some((known) => known.toLowerCase() === code.toLowerCase());

  // The whole Cart as Hydrogen's default fragments read it; the fields a cart of no lines has.
  const view = (cart: StandInCart) => ({
    ...cart,
    updatedAt: new Date().toISOString(),
    checkoutUrl: `https://${options.shop}/cart/c/${cart.id.split("/").pop()}`,
    totalQuantity: 0,
    note: null,
    buyerIdentity: { countryCode: "US", customer: null, email: null, phone: null },
    lines: { edges: [], nodes: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } },
    cost: { subtotalAmount: money, totalAmount: money, totalDutyAmount: null, totalTaxAmount: null, checkoutChargeAmount: money, subtotalAmountEstimated: false, totalAmountEstimated: false },
    appliedGiftCards: [],
  });

  const payload = (cart: StandInCart | undefined, what: string) =>
    cart ? { cart: view(cart), userErrors: [], warnings: [] } : { cart: null, userErrors: [{ field: ["cartId"], message: `The specified cart does not exist. (${what})`, code: "INVALID" }], warnings: [] };

  const codes = (list: unknown) => ((list as string[] | undefined) ?? []).map((code) => ({ code, applicable: applicable(code) }));

  const storefrontRoot = {
    cart: ({ id }: { id: string }) => {
      const cart = carts.get(id);
      return cart ? view(cart) : null;
    },
    cartCreate: ({ input }: { input: { attributes?: StandInCart["attributes"]; discountCodes?: string[] } }) => {
      const cart: StandInCart = {
        id: `gid://shopify/Cart/${randomBytes(12).toString("hex")}?key=${randomBytes(8).toString("hex")}`,
        attributes: (input.attributes ?? []).map(({ key, value }) => ({ key, value })),
        discountCodes: codes(input.discountCodes),
      };
      carts.set(cart.id, cart);
      return payload(cart, "cartCreate");
    },
    cartAttributesUpdate: ({ cartId, attributes }: { cartId: string; attributes: StandInCart["attributes"] }) => {
      const cart = carts.get(cartId);
      if (cart) cart.attributes = attributes.map(({ key, value }) => ({ key, value }));
      return payload(cart, "cartAttributesUpdate");
    },
    cartDiscountCodesUpdate: ({ cartId, discountCodes: list }: { cartId: string; discountCodes?: string[] }) => {
      const cart = carts.get(cartId);
      if (cart) cart.discountCodes = codes(list);
      return payload(cart, "cartDiscountCodesUpdate");
    },
  };

  async function answerGraphql(api: StorefrontCall["api"], schema: GraphQLSchema, body: string, rootValue: object, response: ServerResponse) {
    const { query, variables = {} } = JSON.parse(body) as { query: string; variables?: Record<string, unknown> };
    const document = parse(query);
    const invalid = validate(schema, document).map((e) => e.message);
    const call: StorefrontCall = { api, fields: rootFields(document), variables, invalid, status: 200 };
    calls.push(call);
    if (invalid.length) {
      return send(response, 200, { errors: invalid.map((message) => ({ message, extensions: { code: "GRAPHQL_VALIDATION_FAILED" } })) });
    }
    const result = await execute({ schema, document, rootValue, variableValues: variables });
    send(response, 200, result);
  }

  function send(response: ServerResponse, status: number, body: unknown) {
    // The Storefront API answers any origin: a front end calls it from the visitor's browser.
    response.writeHead(status, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" });
    response.end(JSON.stringify(body));
  }

  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? "/", "http://standin");
      const body = await readBody(request);
      if (request.method === "OPTIONS") {
        response.writeHead(204, { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "POST, GET", "Access-Control-Allow-Headers": "Content-Type, X-Shopify-Storefront-Access-Token, Authorization" });
        return response.end();
      }
      if (request.method === "POST" && /^\/api\/[^/]+\/graphql\.json$/.test(url.pathname)) {
        return await answerGraphql("storefront", storefrontSchema(), body, storefrontRoot, response);
      }
      if (request.method === "GET" && url.pathname === "/.well-known/customer-account-api") {
        const shop = String(request.headers["x-forwarded-host"] ?? options.shop);
        return send(response, 200, { graphql_api: `${standIn.origin}/customer/${shop}/api/unstable/graphql`, mcp_api: `${standIn.origin}/customer/${shop}/api/mcp` });
      }
      const customerApi = url.pathname.match(/^\/customer\/([^/]+)\/api\/([^/]+)\/graphql$/);
      if (request.method === "POST" && customerApi) {
        const token = tokens.get(request.headers.authorization ?? "");
        if (!token || token.shop !== customerApi[1]) {
          calls.push({ api: "customer", fields: [], variables: {}, invalid: [], status: 401 });
          return send(response, 401, { errors: [{ message: "Unauthorized" }] });
        }
        return await answerGraphql("customer", customerAccountSchema(), body, { customer: { id: token.customerGid } }, response);
      }
      send(response, 404, { errors: [{ message: "Not Found" }] });
    } catch (error) {
      send(response, 400, { errors: [{ message: (error as Error).message }] });
    }
  });

  const listening = await listenOnLoopback(server);
  const standIn: StorefrontStandIn = {
    ...listening,
    shop: options.shop,
    calls,
    carts,
    discountCodes,
    issueCustomerToken(shop, customerId) {
      const token = `shcat_${randomBytes(24).toString("hex")}`;
      tokens.set(token, { shop, customerGid: `gid://shopify/Customer/${customerId}` });
      return token;
    },
    revokeTokens: () => tokens.clear(),
  };
  return standIn;
}
