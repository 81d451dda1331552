// The production server's access log line. A request's query string carries
// session tokens (id_token), app proxy signatures and logged_in_customer_id,
// and admin paths carry customer emails (/app/ambassadors/<email>): the line
// keeps the path without the query, with every email masked.

const EMAIL = /[^/@\s]+@[^/@\s]+/g;

export function loggablePath(url: string | undefined): string {
  const path = (url ?? "/").split(/[?#]/, 1)[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // An undecodable path is logged as sent, still masked.
  }
  return decoded.replace(EMAIL, "[email]");
}

type Tokens = { method(req: unknown, res: unknown): string | undefined; status(req: unknown, res: unknown): string | undefined; "response-time"(req: unknown, res: unknown): string | undefined };

/** A morgan format: method, masked path without query, status, time. */
export function accessLogLine(tokens: Tokens, req: { originalUrl?: string; url?: string }, res: unknown): string {
  return [tokens.method(req, res), loggablePath(req.originalUrl ?? req.url), tokens.status(req, res), `${tokens["response-time"](req, res) ?? "-"} ms`].join(" ");
}
