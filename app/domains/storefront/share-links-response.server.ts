import type { ShareLinksAnswer, ShareLinksStatus } from "../../domains/storefront/share-links-contract";

// Every answer the storefront should show calmly is a 200; a passing failure is
// a 503, which the storefront block shows as "try again later".
const HTTP_STATUS: Record<ShareLinksStatus, number> = {
  ok: 200,
  guest: 200,
  not_enrolled: 200,
  unavailable: 200,
  error: 503,
};

/** The JSON response of a share links answer. It is one customer's data: no shared cache may keep it. */
export function shareLinksResponse(answer: ShareLinksAnswer): Response {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (answer.status === "error") headers.set("Retry-After", "30");
  return Response.json(answer, { status: HTTP_STATUS[answer.status], headers });
}

/** A request the route cannot read (e.g. the customer id given twice). */
export function badShareLinksRequest(message: string): Response {
  return Response.json({ status: "error", message }, { status: 400, headers: { "Cache-Control": "private, no-store" } });
}
