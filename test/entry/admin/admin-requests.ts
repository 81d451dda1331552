// Embedded admin requests signed the way the Shopify admin sends them (an
// id_token in the URL), and calls of route modules' loaders and actions.
import type { LoaderFunctionArgs, TypedDeferredData, TypedResponse } from "@remix-run/node";
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { TEST_SHOP } from "../../support/shopify-requests";

export interface AdminRequestOptions {
  shop?: string;
  form?: Record<string, string | string[]>;
}

export async function adminRequest(path: string, options: AdminRequestOptions = {}): Promise<Request> {
  const url = new URL(path, process.env.SHOPIFY_APP_URL);
  let init: RequestInit = {};
  if (options.form) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(options.form)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    }
    init = { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } };
  }
  return setUpValidRequest(
    {
      type: RequestType.Admin,
      // The helper appends ".myshopify.com" to the store name.
      store: (options.shop ?? TEST_SHOP).replace(/\.myshopify\.com$/, ""),
      apiKey: process.env.SHOPIFY_API_KEY!,
      apiSecretKey: process.env.SHOPIFY_API_SECRET!,
    },
    new Request(url, init)
  );
}

type RouteFunction = (args: LoaderFunctionArgs) => Promise<unknown>;

/** What a loader hands the page (its thrown Responses are test failures), its deferred parts once they came. */
export type LoaderData<L extends RouteFunction> = Resolved<Exclude<Awaited<ReturnType<L>>, Response>>;
type Resolved<T> = T extends TypedDeferredData<infer D> ? { [K in keyof D]: Awaited<D[K]> } : T;

/** A loader's answer made with Remix's `defer` (the router's DeferredData, which the package does not export). */
interface Deferred {
  data: Record<string, unknown>;
  deferredKeys: string[];
  resolveData(signal: AbortSignal): Promise<boolean>;
  readonly unwrappedData: Record<string, unknown>;
}
export const isDeferred = (value: unknown): value is Deferred =>
  typeof value === "object" && value !== null && "deferredKeys" in value && "resolveData" in value;
/** The JSON body of an action's answer. */
export type ActionBody<A extends RouteFunction> = Awaited<ReturnType<A>> extends infer R
  ? R extends TypedResponse<infer T>
    ? T
    : never
  : never;

/** Runs a loader or action like Remix does; a thrown Response is returned. */
export async function callRoute(fn: RouteFunction, request: Request, params: Record<string, string> = {}): Promise<unknown> {
  try {
    return await fn({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** A page's data, for an embedded admin request of `path`, with what it streams (deferred) once it came. */
export async function load<L extends RouteFunction>(
  loader: L,
  path: string,
  options: { shop?: string; params?: Record<string, string> } = {}
): Promise<LoaderData<L>> {
  const result = await callRoute(loader, await adminRequest(path, { shop: options.shop }), options.params);
  if (result instanceof Response) throw new Error(`The loader answered ${result.status}: ${await result.text()}`);
  if (!isDeferred(result)) return result as LoaderData<L>;
  await result.resolveData(new AbortController().signal);
  return result.unwrappedData as LoaderData<L>;
}

/** Posts a form to an action, as the page's <Form> does; returns the status and the JSON body. */
export async function submit<A extends RouteFunction>(
  action: A,
  path: string,
  form: Record<string, string | string[]>,
  options: { shop?: string; params?: Record<string, string> } = {}
): Promise<{ status: number; body: ActionBody<A> }> {
  const result = await callRoute(action, await adminRequest(path, { form, shop: options.shop }), options.params);
  if (!(result instanceof Response)) throw new Error("The action did not answer with a Response");
  return { status: result.status, body: (await result.json()) as ActionBody<A> };
}
