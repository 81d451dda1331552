// The customer account extension's client code (extensions/customer-account/src/
// links-api.ts, compiled as the CLI would) running in real Chromium on another
// origin than the app, like the extension's sandboxed worker: the browser's own
// CORS preflight and checks decide whether it may read the app's answer.
import { adminApi } from "./support/admin-api-stub";

import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import ts from "typescript";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { action, loader } from "../../../app/routes/api.customer-account.links";
import type { SandboxHandle } from "../../../sandbox/server";
import { describeInBrowser, launchBrowser } from "../../support/browser";
import { startTestSandbox } from "../../support/pipeline";
import { customerAccountRequest, respond } from "./support/requests";
import { CUSTOMERS, resetWorld, setUpShop } from "./support/world";

const { alice } = CUSTOMERS;
const CUSTOMER_BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

let sandbox: SandboxHandle;
let app: Server;
let appOrigin: string;
let extensionHost: Server;
let extensionOrigin: string;
let browser: Browser;
let page: Page;
const seenByApp: { method: string; status: number; origin: string | undefined }[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

// The extension's client, compiled to a browser module.
const clientModule = ts.transpileModule(
  readFileSync(new URL("../../../extensions/customer-account/src/links-api.ts", import.meta.url), "utf8"),
  { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2020 } },
).outputText;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  // The app: the Remix route behind a plain HTTP server.
  app = createServer(async (req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(`${appOrigin}${req.url}`, { method: req.method, headers });
    const response = await respond(request.method === "GET" ? loader : action, request);
    seenByApp.push({ method: req.method ?? "", status: response.status, origin: req.headers.origin });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  appOrigin = await listen(app);
  // Where the extension runs: another origin.
  extensionHost = createServer((req, res) => {
    if (req.url === "/links-api.js") {
      res.writeHead(200, { "Content-Type": "text/javascript" }).end(clientModule);
      return;
    }
    res
      .writeHead(200, { "Content-Type": "text/html" })
      .end(
        '<!doctype html><title>extension</title><script type="module">' +
          'import { fetchShareLinks } from "/links-api.js"; window.fetchShareLinks = fetchShareLinks;</script>',
      );
  });
  extensionOrigin = await listen(extensionHost);
  browser = await launchBrowser();
});

afterEach(async () => {
  await page?.close();
});

afterAll(async () => {
  await browser?.close();
  await close(app);
  await close(extensionHost);
  await sandbox?.close();
});

beforeEach(async () => {
  await resetWorld(sandbox);
  seenByApp.length = 0;
  // authenticate.public.customerAccount answers self-declared bots with 410, and
  // headless Chromium says "HeadlessChrome": present the user agent of a customer's browser.
  page = await browser.newPage({ userAgent: CUSTOMER_BROWSER });
  await page.goto(`${extensionOrigin}/`);
  await page.waitForFunction(() => "fetchShareLinks" in window);
});

async function tokenFor(customerId: string, secret?: string): Promise<string> {
  const request = await customerAccountRequest({ customerId, secret });
  return request.headers.get("Authorization")!.replace("Bearer ", "");
}

type ClientState = { kind: string; links?: { url: string }[] };

function runClient(target: Page, appUrl: string, token: string): Promise<ClientState> {
  return target.evaluate(
    ({ appUrl, token }) => {
      const client = (window as unknown as { fetchShareLinks: (options: unknown) => Promise<ClientState> }).fetchShareLinks;
      return client({ appUrl, getToken: async () => token, fetch: (url: string, init: RequestInit) => fetch(url, init) });
    },
    { appUrl, token },
  );
}

describeInBrowser("customer account extension across origins", () => {
  it("passes the browser's preflight and reads the links", async () => {
    await setUpShop(sandbox);

    const state = await runClient(page, appOrigin, await tokenFor(alice.id));

    expect(state.kind).toBe("ok");
    expect(state.links?.map((link) => link.url)).toEqual([
      `${sandbox.baseUrl}/s/ALICE10`,
      `${sandbox.baseUrl}/s/ALICEPTS`,
    ]);
    // The Authorization header makes Chromium ask first.
    expect(seenByApp).toEqual([
      { method: "OPTIONS", status: 204, origin: extensionOrigin },
      { method: "GET", status: 200, origin: extensionOrigin },
    ]);
    expect(adminApi.calls).toHaveLength(1);
  });

  it("gives a forged token nothing: the app answers 401 and the client shows its error state", async () => {
    await setUpShop(sandbox);
    const state = await runClient(page, appOrigin, await tokenFor(alice.id, "forged-secret"));
    expect(state).toEqual({ kind: "error" });
    expect(seenByApp.map((seen) => [seen.method, seen.status])).toEqual([
      ["OPTIONS", 204],
      ["GET", 401],
    ]);
    expect(adminApi.calls).toEqual([]);
  });
});
