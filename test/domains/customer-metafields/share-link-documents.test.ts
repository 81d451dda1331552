import { describe, expect, it } from "vitest";
import { deleteShareLinkMetafields, findShareLinkCustomer, setShareLinkMetafields } from "../../../app/domains/customer-metafields/customer-documents.server";
import { shareLinkValues } from "../../../app/domains/customer-metafields/share-link-fields";
import { DEFAULT_SCOPES } from "../../../app/wiring/env.server";
import { adminCall } from "../../../app/platform/shopify-admin/admin-call.server";
import { AdminCallError } from "../../../app/platform/shopify-admin/admin-graphql.server";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";

// Each Admin document of the share link metafields sent through the stand-in,
// which validates it against Shopify's 2026-10 schema and answers as
// Shopify's reference describes metafieldsSet and metafieldsDelete.

function world(scopes = [...DEFAULT_SCOPES.split(","), "write_customers"]) {
  const shopify = new ShopifyAdminStandIn();
  shopify.grantedScopes = scopes;
  return { shopify, deps: { admin: shopify, sleep: async () => {} } };
}

const LINK = { link: "https://refer.example.com/s/NINA10", code: "NINA10" };

describe("the share link documents", () => {
  it("find the customer (by id, else by email), write both fields, read them back, remove them; all valid against 2026-10", async () => {
    const { shopify, deps } = world();
    const nina = shopify.customers.add("Nina@Example.com");
    expect(await findShareLinkCustomer(deps, "nina@example.com")).toEqual({ ok: true, customer: { id: nina.id, email: "Nina@Example.com", current: { link: null, code: null } } });

    await setShareLinkMetafields(deps, nina.id, LINK);
    expect(await findShareLinkCustomer(deps, "nina@example.com", nina.id)).toMatchObject({ ok: true, customer: { id: nina.id, current: LINK } });
    // Stored in the app's reserved namespace, with the definition's types.
    expect(shopify.customerMetafields.list(nina.id).map(({ namespace, key, type, value }) => ({ namespace, key, type, value }))).toEqual([
      { namespace: `app--${process.env.SHOPIFY_API_KEY}`, key: "share_link", type: "url", value: LINK.link },
      { namespace: `app--${process.env.SHOPIFY_API_KEY}`, key: "share_code", type: "single_line_text_field", value: "NINA10" },
    ]);

    await deleteShareLinkMetafields(deps, nina.id);
    expect(shopify.customerMetafields.list(nina.id)).toEqual([]);
    // Removing what is not there is no error (Shopify answers null for it).
    await deleteShareLinkMetafields(deps, nina.id);
    // A customer id that no longer has this email: found by email instead.
    const other = shopify.customers.add("someone@example.com");
    expect(await findShareLinkCustomer(deps, "nina@example.com", other.id)).toMatchObject({ ok: true, customer: { id: nina.id } });
    expect(await findShareLinkCustomer(deps, "nobody@example.com")).toEqual({ ok: false, why: "none" });
    // Someone who signed up with an ambassador's email and never verified it is not the ambassador, even when the storefront saw them signed in.
    const signedUp = shopify.customers.add("omar@example.com", { verifiedEmail: false });
    expect(await findShareLinkCustomer(deps, "omar@example.com", signedUp.id)).toEqual({ ok: false, why: "unverified" });

    expect(shopify.refused).toEqual([]);
    expect(new Set(shopify.calls.map((c) => c.operation))).toEqual(
      new Set(["ReferralBridgeShareLinkCustomers", "ReferralBridgeShareLinkCustomer", "ReferralBridgeSetShareLink", "ReferralBridgeDeleteShareLink"]),
    );
  });

  it("a customer that does not exist: Shopify's userErrors, as an AdminCallError that says so", async () => {
    const { shopify, deps } = world();
    const error = await setShareLinkMetafields(deps, "gid://shopify/Customer/999999", LINK).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminCallError);
    expect((error as AdminCallError).message).toBe("Shopify refused the share link: Owner does not exist. (INVALID); Owner does not exist. (INVALID)");
    expect(shopify.refused).toEqual([]);
  });

  it("a value that is not a URL is refused and nothing is written (metafieldsSet is atomic)", async () => {
    const { shopify, deps } = world();
    const nina = shopify.customers.add("nina@example.com");
    await expect(setShareLinkMetafields(deps, nina.id, { link: "javascript:alert(1)", code: "NINA10" })).rejects.toThrow(/valid URL.*\(INVALID_VALUE\)/);
    expect(shopify.customerMetafields.list(nina.id)).toEqual([]);
  });

  it("a type other than the definition's is refused", async () => {
    const { shopify, deps } = world();
    const nina = shopify.customers.add("nina@example.com");
    const data = await adminCall<{ metafieldsSet: { userErrors: { code: string; message: string }[] } }>(
      deps,
      `mutation Wrong($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { id } userErrors { code message } } }`,
      { m: [{ ownerId: nina.id, namespace: "$app", key: "share_link", type: "single_line_text_field", value: "x" }] },
    );
    expect(data.metafieldsSet.userErrors).toEqual([{ code: "INVALID_TYPE", message: "Type must be url (the type of the metafield definition)." }]);
  });

  it("without write_customers: refused with APP_NOT_AUTHORIZED", async () => {
    const { shopify, deps } = world(DEFAULT_SCOPES.split(","));
    const nina = shopify.customers.add("nina@example.com");
    await expect(setShareLinkMetafields(deps, nina.id, LINK)).rejects.toThrow(/APP_NOT_AUTHORIZED/);
    await expect(deleteShareLinkMetafields(deps, nina.id)).rejects.toThrow(/Access denied/);
  });
});

describe("shareLinkValues", () => {
  const link = (campaignUid: string, url: string | null, sandbox = false) =>
    ({ campaignUid, url, sandbox, campaignName: null, campaignDescription: null, private: null, socialEnabled: null, totalMoneyEarned: null, totalPointsEarned: null, uniqueReferrals: null, stats: null, extra: {} });

  it("is the first tracked campaign's web link and its code; none for an inactive ambassador or without a web link", () => {
    const links = [link("1002", "https://r.example/s/VIP"), link("1001", "https://r.example/s/ALICE10"), link("1003", "javascript:x")];
    expect(shareLinkValues({ status: "enrolled", campaignLinks: links }, ["1001", "1003"])).toEqual({ link: "https://r.example/s/ALICE10", code: "ALICE10" });
    expect(shareLinkValues({ status: "enrolled", campaignLinks: links }, [])).toEqual({ link: "https://r.example/s/VIP", code: "VIP" });
    expect(shareLinkValues({ status: "banned", campaignLinks: links }, [])).toBeNull();
    expect(shareLinkValues({ status: "unsubscribed", campaignLinks: links }, [])).toBeNull();
    expect(shareLinkValues({ status: "enrolled", campaignLinks: [link("1003", "javascript:x")] }, ["1003"])).toBeNull();
    expect(shareLinkValues({ status: "enrolled", campaignLinks: [link("1001", "https://r.example/s/T", true)] }, [])).toBeNull();
  });
});
