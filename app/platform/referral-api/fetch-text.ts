import { ReferralApiError } from "./errors";
import { redactSecrets } from "../text/redact";

/** The code of the error a redirect answer fails with. */
export const SERVICE_REDIRECT = "SERVICE_REDIRECT";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** A failure's message chain (undici nests the real reason in `cause`), free of secrets. */
function describe(error: unknown, secrets: readonly string[]): { text: string; code?: string } {
  const parts: string[] = [];
  let code: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    if (typeof current !== "object") {
      parts.push(String(current));
      break;
    }
    const { message, code: ownCode, cause } = current as { message?: unknown; code?: unknown; cause?: unknown };
    if (typeof message === "string" && message && !parts.includes(message)) parts.push(message);
    if (typeof ownCode === "string") code ??= ownCode;
    current = cause;
  }
  return { text: redactSecrets(parts.join(": "), secrets), code };
}

/**
 * One HTTP exchange with a deadline covering headers and body. The deadline
 * holds even for a fetch that ignores its signal. Failures become a
 * "timeout" or "network" ReferralApiError whose message and cause carry no
 * secret (the original error, which may hold the URL, is not kept).
 */
export async function fetchText(
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit,
  { operation, timeoutMs, secrets }: { operation: string; timeoutMs: number; secrets: readonly string[] },
): Promise<RawAnswer> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      reject(new Error("deadline"));
    }, timeoutMs);
  });
  const exchange = (async () => {
    const response = await fetchImpl(url, { ...init, signal: controller.signal });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw Object.assign(new Error(`the service answered with a redirect (HTTP ${response.status}), which the app does not follow`), {
        code: SERVICE_REDIRECT,
      });
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  })();
  exchange.catch(() => undefined);

  try {
    return await Promise.race([exchange, deadline]);
  } catch (error) {
    const isTimeout = timedOut || (error instanceof Error && error.name === "TimeoutError");
    const { text, code } = describe(error, secrets);
    const cause = new Error(isTimeout ? `no complete answer within ${timeoutMs} ms` : text);
    cause.name = isTimeout ? "TimeoutError" : "NetworkError";
    if (code && !isTimeout) Object.assign(cause, { code });
    throw new ReferralApiError({ kind: isTimeout ? "timeout" : "network", operation, detail: cause.message, cause });
  } finally {
    clearTimeout(timer);
  }
}
