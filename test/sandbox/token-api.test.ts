import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SEED } from "../../sandbox/seed";
import { startTestSandbox, type Json, type TestSandbox } from "./helpers";

let t: TestSandbox;
const auth = { Authorization: `Token ${SEED.credentials.apiKey}` };

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.sandbox.close());
beforeEach(() => t.sandbox.reset());

async function get(path: string, headers: Record<string, string> = auth): Promise<{ status: number; body: Json }> {
  const response = await fetch(path.startsWith("http") ? path : `${t.sandbox.tokenApiUrl}${path}`, { headers });
  return { status: response.status, body: await response.json() };
}

describe("api-key", () => {
  it("returns the API key for username and password (multipart or urlencoded)", async () => {
    const form = new FormData();
    form.set("username", "demo");
    form.set("password", SEED.credentials.password);
    const multipart = await fetch(`${t.sandbox.tokenApiUrl}/api-key/`, { method: "POST", body: form });
    expect(multipart.status).toBe(200);
    expect(await multipart.json()).toEqual({ api_key: "demo-api-key" });

    const urlencoded = await fetch(`${t.sandbox.tokenApiUrl}/api-key/`, {
      method: "POST",
      body: new URLSearchParams({ username: "demo", password: "wrong" }),
    });
    expect(urlencoded.status).toBe(400);
  });
});

describe("entry point", () => {
  it("requires the Token header", async () => {
    expect((await get("/", {})).status).toBe(401);
    expect((await get("/", { Authorization: "Token nope" })).body).toEqual({ detail: "Invalid token." });
    const { status, body } = await get("/");
    expect(status).toBe(200);
    expect(body.companies).toBe(`${t.sandbox.tokenApiUrl}/companies/`);
  });
});

describe("list conventions", () => {
  it("pages with count, next and previous as absolute URLs", async () => {
    const first = await get("/companies/?page_size=2");
    expect(first.body.count).toBe(5);
    expect(first.body.results.map((c: { id: number }) => c.id)).toEqual([1, 2]);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${t.sandbox.tokenApiUrl}/companies/?page_size=2&page=2`);

    const second = await get(first.body.next);
    expect(second.body.results.map((c: { id: number }) => c.id)).toEqual([3, 4]);
    expect(second.body.previous).toBe(`${t.sandbox.tokenApiUrl}/companies/?page_size=2`);
    const last = await get(second.body.next);
    expect(last.body.next).toBeNull();
    expect((await get("/companies/?page=9")).status).toBe(404);
  });

  it("caps page_size at 100 and defaults to 20", async () => {
    await Promise.all(Array.from({ length: 110 }, (_, i) => t.call("ambassador/get", { email: `c${i}@example.com`, auto_create: "1" })));
    expect((await get("/contacts/")).body.results).toHaveLength(20);
    const big = await get("/contacts/?page_size=500");
    expect(big.body.count).toBe(117);
    expect(big.body.results).toHaveLength(100);
  });

  it("searches case-insensitively; every term must match", async () => {
    const outfitters = await get("/companies/?search=OUTFITTERS");
    expect(outfitters.body.results.map((c: { name: string }) => c.name)).toEqual(["Demo Outfitters", "Demo Outfitters Outlet"]);
    const both = await get(`/companies/?search=${encodeURIComponent("demo outlet")}`);
    expect(both.body.results.map((c: { id: number }) => c.id)).toEqual([2]);
    const contacts = await get("/contacts/?search=alice%20archer");
    expect(contacts.body.results.map((c: { email: string }) => c.email)).toEqual(["alice@example.com"]);
  });

  it("orders by a field, descending with a - prefix", async () => {
    const byName = await get("/companies/?ordering=-name");
    expect(byName.body.results.map((c: { name: string }) => c.name)).toEqual([
      "Trailhead Apparel",
      "Summit Supply Co",
      "Northwind Gear",
      "Demo Outfitters Outlet",
      "Demo Outfitters",
    ]);
    const richest = await get("/contacts/?ordering=-balance_money&page_size=2");
    expect(richest.body.results.map((c: { email: string }) => c.email)).toEqual(["bob@example.com", "alice@example.com"]);
  });
});
