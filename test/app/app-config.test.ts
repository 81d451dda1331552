import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_SCOPES } from "../../app/wiring/env.server";
import { API_VERSION } from "../../app/wiring/shopify.server";
import { SHARE_LINK_FIELDS } from "../../app/domains/customer-metafields/share-link-fields";
import { ALL_ORDERS_SCOPE, FEATURE_SCOPES } from "../../app/platform/shopify-admin/optional-scopes";

const toml = readFileSync("shopify.app.toml", "utf8");

function tomlValue(key: string): string | undefined {
  return toml.match(new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`, "m"))?.[1];
}

describe("shopify.app.toml", () => {
  it("asks for the scopes the app is configured with", () => {
    expect(tomlValue("scopes")?.split(",").sort()).toEqual(DEFAULT_SCOPES.split(",").sort());
  });

  it("asks at install for no scope that only an optional feature needs, and declares those optional", () => {
    const optional = JSON.parse(toml.match(/^\s*optional_scopes\s*=\s*(\[[^\]]*\])/m)?.[1] ?? "[]") as string[];
    const features = [...new Set([...Object.values(FEATURE_SCOPES).flat(), ALL_ORDERS_SCOPE])];
    expect(optional.sort()).toEqual([...features].sort());
    expect(DEFAULT_SCOPES.split(",").filter((scope) => features.includes(scope))).toEqual([]);
    // write_customers would make it redundant; it is optional now, and the storefront and reconciliation read customers.
    expect(DEFAULT_SCOPES.split(",")).toContain("read_customers");
  });

  it("declares the customer metafields the app writes, with the types it writes them with, readable on the storefront and in customer accounts", () => {
    for (const { key, type } of Object.values(SHARE_LINK_FIELDS)) {
      const table = toml.split(/^(?=\[)/m).find((section) => section.startsWith(`[customer.metafields.app.${key}]`));
      expect(table, key).toBeDefined();
      expect(table).toMatch(new RegExp(`^type = "${type}"$`, "m"));
      expect(table).toMatch(/^access\.storefront = "public_read"$/m);
      expect(table).toMatch(/^access\.customer_account = "read"$/m);
    }
  });

  it("subscribes webhooks at the app's Admin API version", () => {
    expect(tomlValue("api_version")).toBe(API_VERSION);
  });

  it("names an existing route for every subscription", () => {
    const handled = [...toml.matchAll(/# Handled by: \/(app\/routes\/[^\s]+)/g)].map((m) => m[1]!);
    const uris = [...toml.matchAll(/^\s*uri = "\/webhooks\/([^"]+)"/gm)].map((m) => m[1]!);
    expect(handled).toHaveLength(uris.length);
    for (const [index, uri] of uris.entries()) {
      expect(handled[index]).toBe(`app/routes/webhooks.${uri.replace(/\//g, ".")}.tsx`);
      expect(existsSync(handled[index]!), `${handled[index]} exists`).toBe(true);
    }
  });
});
