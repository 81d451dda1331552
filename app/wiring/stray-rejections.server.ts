import type { Logger } from "../platform/logger/logger.server";

/**
 * A promise rejection nobody handles ends a Node process by default. A
 * long-running app process logs it and goes on instead: one stray rejection
 * (a library's, say) must not drop the webhooks and jobs under way, and a
 * crash loop helps nobody.
 */
export function logStrayRejections(logger: Logger): void {
  if (process.listenerCount("unhandledRejection") > 0) return;
  process.on("unhandledRejection", (reason) => logger.error({ err: reason }, "unhandled promise rejection; the process goes on"));
}
