import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { startAppProcess } from "./wiring/process.server";
import { addDocumentResponseHeaders } from "./wiring/shopify.server";
import { ADMIN_TIMEOUT_MS } from "./entry/admin/service-errors.server";
import { logger } from "./platform/logger/logger.server";

// For server.mjs: the order webhooks answered before Remix sees them, and the process's start and stop.
export { serveOrderWebhook } from "./wiring/order-intake.server";
export { startAppProcess, stopAppProcess } from "./wiring/process.server";
export { accessLogLine } from "./wiring/access-log";

/**
 * How long a page's streamed parts (the referral service's data, deferred) may
 * take. Longer than the admin's wait for the service, so a slow service ends
 * in the page's own "slow to answer" message rather than a cut stream.
 */
const RENDER_TIMEOUT_MS = ADMIN_TIMEOUT_MS + 2_000;

// Under any server (remix dev too); server.mjs also waits for it before it listens.
void startAppProcess();

/**
 * Remix's own handler writes every error to stderr with its stack, a request
 * for a page that does not exist (a bot, a typo) included. Here an address
 * nobody serves is only its 404 in the access log; a real failure is one of
 * our error lines, its URL's query and any email left out like every line's.
 */
export function handleError(error: unknown, { request }: { request: Request }): void {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status === 404) return;
  logger.error({ err: error, method: request.method, path: new URL(request.url).pathname }, "request failed");
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  addDocumentResponseHeaders(request, responseHeaders);
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={RENDER_TIMEOUT_MS} />,
      {
        [waitForAll ? "onAllReady" : "onShellReady"]: () => {
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html");
          resolve(
            new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
          );
          pipe(body);
        },
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          // Through the redacting logger: a render error's message can carry an email or a customer id.
          logger.error({ err: error }, "a page could not be rendered");
        },
      },
    );
    setTimeout(abort, RENDER_TIMEOUT_MS + 1000);
  });
}
