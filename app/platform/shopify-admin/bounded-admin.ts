import { AdminCallError, type AdminGraphql } from "./admin-graphql.server";

// Every Admin API call the app makes is given up after ADMIN_CALL_TIMEOUT_MS.
// The client library waits about five minutes on its own, and a payout's
// store credit relies on no call lasting longer than its settle window (two
// minutes, payout-events.server.ts): a worker that took over a stalled job
// reads the customer's account once the window has passed, and a call still
// under way then could land after it was judged lost and be sent again.

/** How long one Admin call (its answer read included) may take. */
export const ADMIN_CALL_TIMEOUT_MS = 20_000;

/** The same client, each call aborted (its request, when the client takes a signal) and failed after `ms`. */
export function boundAdminCalls(admin: AdminGraphql, ms = ADMIN_CALL_TIMEOUT_MS): AdminGraphql {
  return {
    async graphql(query, options) {
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          // The request may have reached Shopify: whether it acted is unknown.
          reject(new AdminCallError(`No answer from Shopify within ${ms >= 1_000 ? `${ms / 1_000} s` : `${ms} ms`}`, "unknown"));
        }, ms);
      });
      try {
        const response = await Promise.race([admin.graphql(query, { ...options, signal: controller.signal }), late]);
        const body = await Promise.race([response.json(), late]);
        return { json: async () => body };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
