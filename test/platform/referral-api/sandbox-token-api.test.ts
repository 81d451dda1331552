import { describe, expect, it } from "vitest";
import { createTokenApiClient } from "../../../app/platform/referral-api";
import { failureOf } from "./support/failure";
import { useSandbox } from "./support/sandbox";

const sandbox = useSandbox();

describe("token-header interface against the sandbox", () => {
  it("obtains an API key, reads the entry point, and lists companies across pages", async () => {
    const api = createTokenApiClient({ apiUrl: sandbox.sb().tokenApiUrl });
    const key = await api.obtainApiKey("demo", "demo-password");
    expect(key.length).toBeGreaterThan(0);

    const links = await api.entryPoint();
    expect(links.companies).toMatch(/\/companies\/$/);

    const first = await api.listPage(links.companies, { pageSize: 2 });
    expect(first.count).toBeGreaterThanOrEqual(3);
    expect(first.results).toHaveLength(2);
    expect(first.next).not.toBeNull();
    expect(first.previous).toBeNull();

    const all: Record<string, unknown>[] = [];
    for await (const company of api.list(links.companies, { page_size: 2 })) all.push(company);
    expect(all).toHaveLength(first.count);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
  });

  it("search matches all terms and ordering sorts", async () => {
    const api = createTokenApiClient({ apiUrl: sandbox.sb().tokenApiUrl });
    await api.obtainApiKey("demo", "demo-password");
    const demo = await api.listPage<{ name: string }>("companies/", { search: "demo" });
    expect(demo.results.length).toBeGreaterThanOrEqual(2);
    expect(demo.results.every((c) => /demo/i.test(JSON.stringify(c)))).toBe(true);
    const both = await api.listPage<{ name: string }>("companies", { search: ["demo", "outlet"] });
    expect(both.results.map((c) => c.name)).toEqual(["Demo Outfitters Outlet"]);

    const descending = await api.listPage<{ name: string }>("companies/", { ordering: "-name", pageSize: 100 });
    const names = descending.results.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a)));
  });

  it("wrong password, wrong key and a missing page are classified", async () => {
    const api = createTokenApiClient({ apiUrl: sandbox.sb().tokenApiUrl });
    const login = await failureOf(api.obtainApiKey("demo", "wrong"));
    expect(login).toMatchObject({ kind: "authentication", errors: ["Unable to log in with provided credentials."] });

    const badKey = createTokenApiClient({ apiUrl: sandbox.sb().tokenApiUrl, apiKey: "not-the-key" });
    expect(await failureOf(badKey.entryPoint())).toMatchObject({ kind: "authentication", status: 401, errors: ["Invalid token."] });

    const good = createTokenApiClient({ apiUrl: `${sandbox.sb().tokenApiUrl}/`, apiKey: await api.obtainApiKey("demo", "demo-password") });
    expect(await failureOf(good.listPage("companies/", { page: 999 }))).toMatchObject({ kind: "not_found", status: 404 });
  });
});
