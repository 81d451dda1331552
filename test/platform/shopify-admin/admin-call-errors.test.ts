import { describe, expect, it } from "vitest";
import { adminCall } from "../../../app/platform/shopify-admin/admin-call.server";
import { AdminCallError } from "../../../app/platform/shopify-admin/admin-graphql.server";

describe("adminCall: Shopify's error bodies", () => {
  it("a refused access token's body (errors as one string) is a refusal with Shopify's words, not a crash", async () => {
    const admin = { graphql: async () => Response.json({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" }, { status: 401 }) };
    const call = adminCall({ admin, sleep: async () => {} }, "query Shop { shop { id } }");
    await expect(call).rejects.toThrow(AdminCallError);
    await expect(call).rejects.toMatchObject({ applied: false, message: expect.stringContaining("Invalid API key or access token") });
  });
});
