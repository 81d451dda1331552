// A tiny same-origin "storefront" for browser tests: serves the extension's assets
// and hands every other request to the test's own route handler.
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { extensionDir } from "./liquid-lite";
import { listenOnLoopback, type LoopbackServer } from "../../support/loopback-server";

export interface StorefrontRequest {
  method: string;
  path: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Route = (req: StorefrontRequest, res: ServerResponse) => void | Promise<void>;

export type Storefront = LoopbackServer;

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(value));
}

export function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(html);
}

export async function startStorefront(route: Route): Promise<Storefront> {
  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const url = new URL(req.url ?? "/", "http://storefront.test");
      if (url.pathname === "/favicon.ico") {
        res.writeHead(204).end();
        return;
      }
      const asset = /^\/assets\/([\w.-]+)$/.exec(url.pathname);
      if (asset && req.method === "GET") {
        const file = path.join(extensionDir, "assets", asset[1]);
        const type = TYPES[path.extname(file)] ?? "application/octet-stream";
        res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
        res.end(await readFile(file));
        return;
      }
      await route(
        { method: req.method ?? "GET", path: url.pathname, url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") },
        res,
      );
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  return listenOnLoopback(server);
}
