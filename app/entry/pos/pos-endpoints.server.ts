import type { Logger } from "../../platform/logger/logger.server";
import { checkCounterCode, checkCustomerReferrer, type CounterCodeAnswer, type CounterCodeDeps } from "../../domains/referrals";
import { loadShareLinks, sessionTokenShop, shareLinksResponse, type ShareLinksDeps } from "../../domains/storefront";
import type { CustomerLookup } from "../../platform/shopify-admin/customer-lookup.server";

// The POS UI extension's calls (extensions/pos-referral). The route has
// verified POS's session token (authenticate.public.pos: signed with the
// app's secret, not expired); the shop is the token's `dest` and nothing the
// device says. A shop without the app installed is refused (403) before
// anything is asked; every code is checked at the referral service here.

export interface PosEndpointDeps {
  counter: CounterCodeDeps;
  shareLinks: ShareLinksDeps;
  shopHasSession(shop: string): Promise<boolean>;
  /** The shop's Admin API customer lookup; null when it has no offline session. */
  customerLookup(shop: string): Promise<CustomerLookup | null>;
  logger: Logger;
}

export interface PosSessionToken {
  dest: unknown;
}

/** The longest input read: a share link's URL is well under this. */
const MAX_INPUT = 2_048;

const noStore = { "Cache-Control": "private, no-store" };
const refuse = (status: number, message: string) => Response.json({ status: "refused", message }, { status, headers: noStore });
const customerId = (value: unknown) => (typeof value === "string" && /^[1-9]\d{0,19}$/.test(value) ? value : null);
const CODE_HTTP: Record<CounterCodeAnswer["status"], number> = { ok: 200, unknown: 200, invalid: 400, unavailable: 200, error: 503 };

/** The token's shop when the app is installed there; else the answer refusing the request. */
async function tokenShop(deps: PosEndpointDeps, token: PosSessionToken): Promise<{ shop: string } | { refused: Response }> {
  const shop = sessionTokenShop(token.dest);
  if (!shop) return { refused: refuse(400, "The session token does not name a shop") };
  if (!(await deps.shopHasSession(shop))) {
    deps.logger.warn({ shop }, "pos: refused a session token of a shop without the app");
    return { refused: refuse(403, "The app is not installed on this shop") };
  }
  return { shop };
}

/**
 * GET /api/pos/code?input=…: a typed or scanned code, share link or
 * referrer's email, checked; what to put on the cart. ?customerId=…: the
 * code that referred the cart's customer before, checked the same way.
 */
export async function answerCounterCode(deps: PosEndpointDeps, token: PosSessionToken, request: Request): Promise<Response> {
  const found = await tokenShop(deps, token);
  if ("refused" in found) return found.refused;
  const search = new URL(request.url).searchParams;
  const input = search.get("input") ?? "";
  if (input.length > MAX_INPUT) return Response.json({ status: "invalid", message: "The input is too long" }, { status: 400, headers: noStore });
  const cartCustomer = search.has("customerId") ? customerId(search.get("customerId")) : undefined;
  if (cartCustomer === null) return refuse(400, "customerId must be a Shopify customer id");
  const answer = cartCustomer
    ? await checkCustomerReferrer(deps.counter, found.shop, cartCustomer)
    : await checkCounterCode(deps.counter, found.shop, input);
  deps.logger.info({ shop: found.shop, status: answer.status }, "pos: referral code checked");
  return Response.json(answer, { status: CODE_HTTP[answer.status], headers: noStore });
}

/**
 * GET /api/pos/customer?customerId=…: the customer's own share links (the
 * customer-details block). POST with {"customerId", "enrol": true}: staff
 * enrol them. The customer is looked up in the token's shop only.
 */
export async function answerPosCustomer(deps: PosEndpointDeps, token: PosSessionToken, request: Request): Promise<Response> {
  const found = await tokenShop(deps, token);
  if ("refused" in found) return found.refused;
  let asked: { customerId: unknown; enrol?: unknown };
  if (request.method === "POST") {
    try {
      asked = (await request.json()) as typeof asked;
    } catch {
      return refuse(400, "The body is not JSON");
    }
  } else {
    asked = { customerId: new URL(request.url).searchParams.get("customerId") };
  }
  const id = customerId(asked?.customerId);
  if (!id) return refuse(400, "customerId must be a Shopify customer id");
  const answer = await loadShareLinks(deps.shareLinks, {
    shop: found.shop,
    customerId: id,
    lookupCustomer: await deps.customerLookup(found.shop),
    surface: "pos",
    enrol: request.method === "POST" && asked.enrol === true,
  });
  return shareLinksResponse(answer);
}
