import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../wiring/shopify.server";
import { posEndpointDeps } from "../wiring/pos-context.server";
import { answerPosCustomer } from "../entry/pos/pos-endpoints.server";

/**
 * /api/pos/customer: the POS customer-details block (extensions/pos-referral).
 * GET ?customerId=…: the customer's own share links; POST {"customerId",
 * "enrol": true}: staff enrol the customer. The shop is the POS session
 * token's (401 without a valid one). Every answer carries CORS headers.
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<Response> {
  const { sessionToken, cors } = await authenticate.public.pos(request);
  return cors(await answerPosCustomer(posEndpointDeps(), sessionToken, request));
}

/** POST (enrol), and the CORS preflight, which authenticate answers with 204. */
export async function action({ request }: ActionFunctionArgs): Promise<Response> {
  const { sessionToken, cors } = await authenticate.public.pos(request);
  if (request.method !== "POST") return cors(new Response(null, { status: 405, headers: { Allow: "GET, POST, OPTIONS" } }));
  return cors(await answerPosCustomer(posEndpointDeps(), sessionToken, request));
}
