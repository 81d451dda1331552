// The POS extension's calls to the app, and what it does with the answers.
// No framework and no POS globals here: the app's own tests run this file
// against the real routes (app/routes/api.pos.*.tsx) and a stand-in cart.

/** The app's routes for this extension. */
export const CODE_PATH = "/api/pos/code";
export const CUSTOMER_PATH = "/api/pos/customer";

export interface Referrer {
  firstName: string | null;
  lastName: string | null;
}

/** The app's answer for a code (app/domains/referrals/counter-code.server.ts, CounterCodeAnswer). */
export type CodeAnswer =
  | { status: "ok"; code: string; referrer: Referrer; campaignName: string | null; offerCode: string | null; cartProperties: Record<string, string> }
  | { status: "unknown" | "invalid" | "unavailable" | "error"; message: string };

/** What the modal shows: nothing asked yet, asking, or the app's answer (a refused or failed call is an error). */
export type CodeState = { kind: "idle" } | { kind: "checking" } | { kind: "answer"; answer: CodeAnswer };

export interface AppCaller {
  appUrl: string;
  /** POS's session token (shopify.session.getSessionToken); undefined when the staff member may not use the app. */
  getToken(): Promise<string | undefined>;
  fetch(url: string, init: RequestInit): Promise<Response>;
}

const CALL_FAILED = "The app can't be reached right now. Please try again in a moment.";
const NO_TOKEN = "This staff member isn't allowed to use the referral app.";

async function call(caller: AppCaller, path: string, init: RequestInit = {}): Promise<Response | { failed: string }> {
  if (!caller.appUrl) return { failed: CALL_FAILED };
  const token = await caller.getToken().catch(() => undefined);
  if (!token) return { failed: NO_TOKEN };
  try {
    return await caller.fetch(`${caller.appUrl}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string> | undefined), Authorization: `Bearer ${token}`, Accept: "application/json" },
    });
  } catch {
    return { failed: CALL_FAILED };
  }
}

const isAnswer = (value: unknown): value is CodeAnswer =>
  typeof value === "object" && value !== null && typeof (value as { status?: unknown }).status === "string";

/** Asks the app about a typed or scanned code, share link or referrer's email. */
export async function checkCode(caller: AppCaller, input: string): Promise<CodeAnswer> {
  const response = await call(caller, `${CODE_PATH}?input=${encodeURIComponent(input.trim())}`);
  if ("failed" in response) return { status: "error", message: response.failed };
  const body: unknown = await response.json().catch(() => null);
  if (isAnswer(body) && body.status !== "ok") return body;
  if (response.ok && isAnswer(body)) return body;
  return { status: "error", message: CALL_FAILED };
}

/** Asks the app who referred the cart's customer before (their latest referred order). */
export async function findCustomerReferrer(caller: AppCaller, customerId: number | string): Promise<CodeAnswer> {
  const response = await call(caller, `${CODE_PATH}?customerId=${encodeURIComponent(String(customerId))}`);
  if ("failed" in response) return { status: "error", message: response.failed };
  const body: unknown = await response.json().catch(() => null);
  return isAnswer(body) && (response.ok || body.status !== "ok") ? body : { status: "error", message: CALL_FAILED };
}

/** The part of POS's cart API the modal uses. */
export interface CartActions {
  addCartProperties(properties: Record<string, string>): Promise<void>;
  addCartCodeDiscount(code: string): Promise<void>;
}

/** Puts a checked code on the cart: its properties (the order's note attributes), then the friend's offer code; says whether the offer applied. */
export async function applyToCart(cart: CartActions, answer: Extract<CodeAnswer, { status: "ok" }>): Promise<{ offerApplied: boolean }> {
  await cart.addCartProperties(answer.cartProperties);
  if (!answer.offerCode) return { offerApplied: false };
  try {
    await cart.addCartCodeDiscount(answer.offerCode);
    return { offerApplied: true };
  } catch {
    // The code is on the cart either way; POS says why a discount did not apply (e.g. the cart is not eligible).
    return { offerApplied: false };
  }
}

export const referrerName = (referrer: Referrer) => [referrer.firstName, referrer.lastName].filter(Boolean).join(" ") || "an ambassador";

/** A customer's share links as the app answers them (the storefront's share links answer). */
export type CustomerAnswer =
  | { status: "ok"; ambassador: { firstName: string | null; email: string }; links: { campaignName: string; url: string }[] }
  | { status: "not_enrolled"; reason: string; message: string }
  | { status: "guest" | "unavailable" | "error" | "refused"; message?: string };

async function customerAnswer(response: Response | { failed: string }): Promise<CustomerAnswer> {
  if ("failed" in response) return { status: "error", message: response.failed };
  const body = (await response.json().catch(() => null)) as CustomerAnswer | null;
  return body && typeof body.status === "string" ? body : { status: "error", message: CALL_FAILED };
}

export function customerLinks(caller: AppCaller, customerId: number | string): Promise<CustomerAnswer> {
  return call(caller, `${CUSTOMER_PATH}?customerId=${encodeURIComponent(String(customerId))}`).then(customerAnswer);
}

export function enrolCustomer(caller: AppCaller, customerId: number | string): Promise<CustomerAnswer> {
  return call(caller, CUSTOMER_PATH, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ customerId: String(customerId), enrol: true }),
  }).then(customerAnswer);
}
