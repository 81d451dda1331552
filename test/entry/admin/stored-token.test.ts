// The stored service token goes only where it was typed (issue 28): a blank
// token keeps the saved one for the saved base URL and username only. The
// token travels in the URL path, so sending it to a new address would hand
// it to whoever answers there.
import { createServer, request as httpRequest, type Server } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { openToken } from "../../../app/platform/crypto/sealing.server";
import { action } from "../../../app/routes/app.settings";
import { connectShop, sandboxRequests, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { submit, type ActionBody } from "./admin-requests";

const sandbox = useTestSandbox();

beforeEach(async () => {
  await installShop();
});

const connect = (form: Record<string, string>) => submit(action, "/app/settings", { intent: "connect", ...form });
const shopRow = () => prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
const storedToken = async () => openToken((await shopRow()).serviceTokenSealed!, getEnv().CREDENTIALS_KEY, { shop: TEST_SHOP, column: "Shop.serviceTokenSealed" });

function tokenError(body: ActionBody<typeof action>): string | undefined {
  if (body.ok) throw new Error(`Expected a refusal: ${JSON.stringify(body)}`);
  return "fieldErrors" in body ? (body.fieldErrors as Record<string, string | undefined>).token : undefined;
}

const listeners: Server[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A second listener on loopback that records every request (its path holds any token sent) and passes it on to the sandbox. */
async function recordingListener() {
  const target = new URL(sandbox.baseUrl);
  const state = { paths: [] as string[], url: "" };
  const server = createServer((req, res) => {
    state.paths.push(req.url ?? "");
    const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on("error", () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  listeners.push(server);
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return state;
}

describe("settings: the saved token and a new address or username", () => {
  it("refuses a blank token with a new base URL, and nothing is sent anywhere; with the token typed it connects there", async () => {
    // GIVEN a shop connected to the sandbox with its token, and another server on loopback
    await connectShop(sandbox);
    const other = await recordingListener();
    const before = await shopRow();

    // WHEN a staff member submits the same username, a blank token and the other address
    const blank = await connect({ baseUrl: other.url, username: "demo", token: "" });

    // THEN the form refuses on the token field, no server got a request, and nothing stored changed
    expect(blank.status).toBe(400);
    expect(tokenError(blank.body)).toMatch(/^Enter the API token again: /);
    expect(other.paths).toEqual([]);
    expect(await sandboxRequests(sandbox, "company/get")).toEqual([]);
    expect(await shopRow()).toMatchObject({
      serviceBaseUrl: sandbox.baseUrl,
      serviceTokenSealed: before.serviceTokenSealed,
      connectionStatus: "connected",
    });

    // WHEN the same submit carries the token, typed
    const typed = await connect({ baseUrl: other.url, username: "demo", token: sandbox.token });

    // THEN it is checked at that address, with that token, and saved
    expect(typed.status).toBe(200);
    expect(typed.body).toMatchObject({ ok: true, companyName: "Demo Outfitters" });
    expect(other.paths).toEqual([`/api/v2/demo/${sandbox.token}/json/company/get/`]);
    expect(await shopRow()).toMatchObject({ serviceBaseUrl: other.url, connectionStatus: "connected" });
    expect(await storedToken()).toBe(sandbox.token);

    // AND from now on a blank token keeps it for that address (a trailing slash is the same address)
    const kept = await connect({ baseUrl: `${other.url}/`, username: "demo", token: "" });
    expect(kept.body).toMatchObject({ ok: true });
    expect(other.paths).toHaveLength(2);
  });

  it("refuses a blank token with a new username, without calling the service", async () => {
    await connectShop(sandbox);

    const blank = await connect({ baseUrl: sandbox.baseUrl, username: "someone-else", token: "" });

    expect(blank.status).toBe(400);
    expect(tokenError(blank.body)).toMatch(/^Enter the API token again: /);
    expect(await sandboxRequests(sandbox, "company/get")).toEqual([]);
    expect(await shopRow()).toMatchObject({ serviceUsername: "demo", connectionStatus: "connected" });
  });

  it("still keeps the saved token when the base URL and username are the ones saved", async () => {
    await connectShop(sandbox);

    const kept = await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "" });

    expect(kept).toMatchObject({ status: 200, body: { ok: true } });
    expect(await sandboxRequests(sandbox, "company/get")).toHaveLength(1);
    expect(await storedToken()).toBe(sandbox.token);
  });
});
