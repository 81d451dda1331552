// The Customer Account API token check on its own, with Shopify's answers
// given by a fetch the test writes: discovery, the version the query is sent
// at, what counts as refused and as unreachable, and what is remembered.
import { describe, expect, it } from "vitest";
import { customerTokenVerifier } from "../../../app/platform/shopify-customer-account/customer-token.server";

const SHOP = "referral-demo.myshopify.com";

function shopify(answer: (url: string, init?: RequestInit) => Response) {
  const asked: { url: string; authorization: string | null }[] = [];
  const fetchImpl = (async (input: string | URL, init?: RequestInit) => {
    asked.push({ url: String(input), authorization: new Headers(init?.headers).get("Authorization") });
    return answer(String(input), init);
  }) as typeof fetch;
  return { asked, fetchImpl };
}

const discovery = () => Response.json({ graphql_api: "https://shopify.com/68817551382/account/customer/api/unstable/graphql", mcp_api: "https://x/mcp" });

describe("the customer token check", () => {
  it("asks the shop's discovery, then its Customer Account API at 2026-10 with the bare token, and remembers a confirmed owner", async () => {
    const { asked, fetchImpl } = shopify((url) => (url.endsWith("/.well-known/customer-account-api") ? discovery() : Response.json({ data: { customer: { id: "gid://shopify/Customer/7210000000017" } } })));
    const verify = customerTokenVerifier({ fetch: fetchImpl });
    expect(await verify(SHOP, "shcat_alice")).toEqual({ kind: "customer", customerGid: "gid://shopify/Customer/7210000000017" });
    expect(await verify(SHOP, "shcat_alice")).toEqual({ kind: "customer", customerGid: "gid://shopify/Customer/7210000000017" });
    expect(asked).toEqual([
      { url: `https://${SHOP}/.well-known/customer-account-api`, authorization: null },
      { url: "https://shopify.com/68817551382/account/customer/api/2026-10/graphql", authorization: "shcat_alice" },
    ]);
  });

  it("counts 401 as refused and does not remember it; a 5xx or a network failure as unreachable", async () => {
    let status = 401;
    const { asked, fetchImpl } = shopify((url) => (url.includes("well-known") ? discovery() : Response.json({ errors: [{ message: "x" }] }, { status })));
    const verify = customerTokenVerifier({ fetch: fetchImpl });
    expect((await verify(SHOP, "shcat_x")).kind).toBe("refused");
    expect((await verify(SHOP, "shcat_x")).kind).toBe("refused");
    expect(asked.filter((a) => a.url.endsWith("/graphql"))).toHaveLength(2);
    status = 502;
    expect((await verify(SHOP, "shcat_y")).kind).toBe("unreachable");
    const down = customerTokenVerifier({ fetch: (async () => { throw new TypeError("fetch failed"); }) as typeof fetch });
    expect(await down(SHOP, "shcat_z")).toEqual({ kind: "unreachable", reason: "discovery failed: fetch failed" });
  });

  it("refuses to send a token to a discovered address that is not https", async () => {
    const { asked, fetchImpl } = shopify(() => Response.json({ graphql_api: "http://evil.example/api/unstable/graphql" }));
    const verify = customerTokenVerifier({ fetch: fetchImpl });
    expect((await verify(SHOP, "shcat_a")).kind).toBe("unreachable");
    expect(asked.map((a) => a.url)).toEqual([`https://${SHOP}/.well-known/customer-account-api`]);
  });
});
