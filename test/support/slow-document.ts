// A loopback proxy in front of the app that delivers each HTML document in
// two parts with a pause between them, as a slow or lossy network does: the
// browser parses and paints the first part before the rest arrives. Pages
// whose layout depends on content further down (a table's column widths)
// shift when the rest lands; with a plain local server they do so only when
// the machine happens to be busy.
import http from "node:http";
import { listenOnLoopback, type LoopbackServer } from "./loopback-server";

/**
 * `splitBefore(html)` says where to pause (a character offset); the pause is
 * `pauseMs`. Other responses (scripts, styles, data) pass straight through.
 */
export async function startSlowDocumentProxy(
  upstream: string,
  splitBefore: (html: string) => number,
  pauseMs = 600
): Promise<LoopbackServer> {
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host, "accept-encoding": "identity" },
      },
      (answer) => {
        const isDocument = String(answer.headers["content-type"] ?? "").startsWith("text/html");
        if (!isDocument) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const html = Buffer.concat(chunks).toString("utf8");
          const at = Math.max(0, Math.min(html.length, splitBefore(html)));
          const headers = { ...answer.headers };
          delete headers["content-length"];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.write(html.slice(0, at));
          setTimeout(() => res.end(html.slice(at)), pauseMs);
        });
      }
    );
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  return listenOnLoopback(server);
}

/** The offset of the `n`th (1-based) occurrence of `needle`, or the end when there are fewer. */
export function nthIndexOf(html: string, needle: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i += 1) {
    at = html.indexOf(needle, at + 1);
    if (at < 0) return html.length;
  }
  return at;
}
