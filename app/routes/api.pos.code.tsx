import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../wiring/shopify.server";
import { methodNotAllowed } from "../wiring/session-token-links.server";
import { posEndpointDeps } from "../wiring/pos-context.server";
import { answerCounterCode } from "../entry/pos/pos-endpoints.server";

/**
 * GET /api/pos/code?input=…: the POS extension (extensions/pos-referral) checks
 * a referral code, a scanned share link or a referrer's email. POS's session
 * token (signed with the app's secret) names the shop; a missing, forged or
 * expired token gets 401. Every answer carries CORS headers.
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<Response> {
  const { sessionToken, cors } = await authenticate.public.pos(request);
  return cors(await answerCounterCode(posEndpointDeps(), sessionToken, request));
}

/** Remix routes the CORS preflight (OPTIONS) here; authenticate answers it with 204. */
export async function action({ request }: ActionFunctionArgs): Promise<Response> {
  const { cors } = await authenticate.public.pos(request);
  return cors(methodNotAllowed());
}
