// A small HTTP server the sandbox really delivers its webhooks to. It hands
// each raw request to the app's route action (the same bytes and headers) and
// answers the sandbox with the action's status. The first path segment picks
// a way to tamper with the delivery on its way, for the cases a real service
// would never send on its own.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { action } from "../../../app/routes/referral-webhooks.$endpointId";
import { signServiceBody } from "../../../app/domains/service-events/signature.server";

/** The body re-serialised with its keys sorted at every depth: the form a signer might hash, which the app refuses. */
function sortedJson(body: string): string {
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : value && typeof value === "object"
        ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sort((value as Record<string, unknown>)[key])]))
        : value;
  return JSON.stringify(sort(JSON.parse(body)));
}

export type Mode =
  /** as the sandbox sent it */
  | "plain"
  /** without the signature header */
  | "unsigned"
  /** signed over the sorted-keys re-serialisation instead of the raw bytes */
  | "sorted"
  /** JSON cut short, correctly signed */
  | "truncated"
  /** event_id removed, correctly signed */
  | "no-event-id"
  /** the same request handed to the app twice */
  | "twice"
  /** handed to the app, but the sandbox is told 503 the first time, so it delivers again */
  | "fail-first";

export interface Handled {
  mode: Mode;
  status: number;
  eventId: unknown;
  /** How long the action took to answer. */
  ms: number;
}

const HEADER = "x-service-hmac-sha256";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export class Forwarder {
  handled: Handled[] = [];
  /** The secret the tampering modes re-sign with (the shop's own). */
  secret = "";
  private seen = new Set<string>();
  private server: Server = createServer((req, res) => {
    this.forward(req).then(
      (status) => {
        res.statusCode = status;
        res.end();
      },
      (error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      },
    );
  });
  private port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  reset(secret: string): void {
    this.handled = [];
    this.seen.clear();
    this.secret = secret;
  }

  url(mode: Mode, endpointId: string): string {
    return `http://127.0.0.1:${this.port}/${mode}/referral-webhooks/${endpointId}`;
  }

  private async callAction(mode: Mode, endpointId: string, body: string, headers: Record<string, string>): Promise<number> {
    const request = new Request(`https://referral-bridge.test/referral-webhooks/${endpointId}`, { method: "POST", headers, body });
    const started = performance.now();
    const response = await action({ request, params: { endpointId }, context: {} });
    let eventId: unknown;
    try {
      eventId = JSON.parse(body).event_id;
    } catch {
      eventId = undefined;
    }
    this.handled.push({ mode, status: response.status, eventId, ms: performance.now() - started });
    return response.status;
  }

  private async forward(req: IncomingMessage): Promise<number> {
    const [, mode, , endpointId] = (req.url ?? "").split("/") as [string, Mode, string, string];
    let body = await readBody(req);
    const headers: Record<string, string> = { "content-type": String(req.headers["content-type"] ?? "application/json") };
    const signature = req.headers[HEADER];
    if (typeof signature === "string" && mode !== "unsigned") headers[HEADER] = signature;

    if (mode === "sorted") headers[HEADER] = signServiceBody(this.secret, sortedJson(body));
    if (mode === "truncated") {
      body = body.slice(0, Math.floor(body.length / 2));
      headers[HEADER] = signServiceBody(this.secret, body);
    }
    if (mode === "no-event-id") {
      const { event_id: _dropped, ...rest } = JSON.parse(body) as Record<string, unknown>;
      body = JSON.stringify(rest);
      headers[HEADER] = signServiceBody(this.secret, body);
    }
    const status = await this.callAction(mode, endpointId, body, headers);
    if (mode === "twice") return this.callAction(mode, endpointId, body, headers);
    if (mode === "fail-first") {
      const key = String(JSON.parse(body).event_id);
      if (!this.seen.has(key)) {
        this.seen.add(key);
        return 503;
      }
    }
    return status;
  }
}
