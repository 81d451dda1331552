import { describe, expect, it } from "vitest";
import { createTokenApiClient, ReferralApiError } from "../../../app/platform/referral-api";
import { fakeFetch, json } from "./support/fake-fetch";

const API = "https://api.example.test/v1/";

describe("token-header interface", () => {
  it.each([["api_key"], ["key"], ["token"]])("obtains the key from a %s field with a multipart POST", async (field) => {
    const fake = fakeFetch(json({ [field]: "k-123" }), json({ companies: "https://api.example.test/v1/companies/" }));
    const api = createTokenApiClient({ apiUrl: API, fetch: fake.fetch });
    expect(await api.obtainApiKey("demo", "demo-password")).toBe("k-123");
    const [call] = fake.calls;
    expect(call.method).toBe("POST");
    expect(call.url).toBe("https://api.example.test/v1/api-key/");
    expect(call.body).toBeInstanceOf(FormData);
    expect((call.body as FormData).get("username")).toBe("demo");
    expect((call.body as FormData).get("password")).toBe("demo-password");
    expect(call.headers.authorization).toBeUndefined();
    // the key is remembered for later calls
    await api.entryPoint();
    expect(fake.calls[1].headers.authorization).toBe("Token k-123");
  });

  it("wrong credentials are an authentication error with the service's words", async () => {
    const fake = fakeFetch(json({ non_field_errors: ["Unable to log in with provided credentials."] }, 400));
    const api = createTokenApiClient({ apiUrl: API, fetch: fake.fetch });
    const error = await api.obtainApiKey("demo", "nope").catch((e: unknown) => e as ReferralApiError);
    expect(error).toMatchObject({ kind: "authentication", status: 400, errors: ["Unable to log in with provided credentials."] });
  });

  it("reads the entry point links with the Token header", async () => {
    const fake = fakeFetch(json({ companies: "https://api.example.test/v1/companies/", contacts: "https://api.example.test/v1/contacts/", version: 1 }));
    const api = createTokenApiClient({ apiUrl: API, apiKey: "k", fetch: fake.fetch });
    expect(await api.entryPoint()).toEqual({
      companies: "https://api.example.test/v1/companies/",
      contacts: "https://api.example.test/v1/contacts/",
    });
    expect(fake.calls[0].url).toBe("https://api.example.test/v1/");
    expect(fake.calls[0].headers.authorization).toBe("Token k");
    expect(fake.calls[0].headers.accept).toBe("application/json");
  });

  it("lists one page with page_size, search and ordering", async () => {
    const fake = fakeFetch(json({ count: "3", next: null, previous: null, results: [{ id: 1 }] }));
    const api = createTokenApiClient({ apiUrl: API, apiKey: "k", fetch: fake.fetch });
    const page = await api.listPage("companies", { page: 2, pageSize: 1, search: ["demo", "outfitters"], ordering: "-name" });
    expect(page).toEqual({ count: 3, next: null, previous: null, results: [{ id: 1 }] });
    const url = new URL(fake.calls[0].url);
    expect(url.pathname).toBe("/v1/companies/");
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: "2", page_size: "1", search: "demo outfitters", ordering: "-name" });
  });

  it("iterates all results following next until null", async () => {
    const fake = fakeFetch(
      json({ count: 3, next: "https://api.example.test/v1/companies/?page=2&page_size=2", previous: null, results: [{ id: 1 }, { id: 2 }] }),
      json({ count: 3, next: null, previous: "https://api.example.test/v1/companies/?page_size=2", results: [{ id: 3 }] }),
    );
    const api = createTokenApiClient({ apiUrl: API, apiKey: "k", fetch: fake.fetch });
    const ids: unknown[] = [];
    for await (const item of api.list<{ id: number }>("https://api.example.test/v1/companies/", { page_size: 2 })) ids.push(item.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(fake.calls[1].url).toBe("https://api.example.test/v1/companies/?page=2&page_size=2");
    expect(fake.calls.every((c) => c.headers.authorization === "Token k")).toBe(true);
  });

  it("never sends the key to another origin", async () => {
    const fake = fakeFetch(json({ count: 2, next: "https://evil.example/steal?page=2", previous: null, results: [{ id: 1 }] }));
    const api = createTokenApiClient({ apiUrl: API, apiKey: "k", fetch: fake.fetch });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const item of api.list("companies/")) seen.push(item);
    })().catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(ReferralApiError);
    expect(fake.calls).toHaveLength(1);
    await expect(api.listPage("https://evil.example/companies/")).rejects.toBeInstanceOf(ReferralApiError);
  });

  it("classifies failures: bad key, missing key, server", async () => {
    const fake = fakeFetch(json({ detail: "Invalid token." }, 401), new Response("oops", { status: 500 }));
    const api = createTokenApiClient({ apiUrl: API, apiKey: "bad-key-123", fetch: fake.fetch });
    await expect(api.entryPoint()).rejects.toMatchObject({ kind: "authentication", errors: ["Invalid token."], status: 401 });
    await expect(api.entryPoint()).rejects.toMatchObject({ kind: "server", retryable: true });
    const keyless = createTokenApiClient({ apiUrl: API, fetch: fake.fetch });
    await expect(keyless.entryPoint()).rejects.toMatchObject({ kind: "authentication" });
    expect(fake.calls).toHaveLength(2);
  });
});
