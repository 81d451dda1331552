// The production configuration check of `npm run deploy` (scripts/lib/app-config.ts),
// on copies of shopify.app.toml changed as a merchant's developer would change them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extensionAppUrl, parseAppToml, productionConfigProblems } from "../../scripts/lib/app-config";

const development = readFileSync("shopify.app.toml", "utf8");
const PRODUCTION_URL = "https://referrals.merchant-app.example";

/** shopify.app.toml as `config link` and the Deploy step of docs/setup.md leave it for production. */
function productionToml(change: (text: string) => string = (text) => text): string {
  return change(development.replace(/^client_id = ".*"$/m, 'client_id = "5f1d0c2e9a7b4e3f8c6d1a2b3c4d5e6f"').replaceAll("https://localhost:3000", PRODUCTION_URL));
}
const problems = (text: string) => productionConfigProblems(parseAppToml(text), parseAppToml(development));

describe("npm run deploy's check of shopify.app.<name>.toml", () => {
  it("reads shopify.app.toml's scopes, optional scopes and every webhook subscription", () => {
    const config = parseAppToml(development);
    expect(config.tables.get("access_scopes")?.scopes).toMatch(/read_orders/);
    expect(config.subscriptions.length).toBe([...development.matchAll(/^\s*\[\[webhooks\.subscriptions\]\]/gm)].length);
    expect(config.subscriptions.every((entry) => typeof entry.uri === "string")).toBe(true);
  });

  it("accepts a production copy and bundles the extensions with its origin", () => {
    expect(problems(productionToml())).toEqual([]);
    expect(extensionAppUrl(parseAppToml(productionToml()))).toBe(PRODUCTION_URL);
  });

  it("refuses the development configuration itself", () => {
    const found = problems(development);
    expect(found.join("\n")).toMatch(/application_url must be a public https address, not https:\/\/localhost:3000 \(loopback\)/);
    expect(found.join("\n")).toMatch(/client_id must be the production app's/);
  });

  it.each([
    ["http", "http://referrals.merchant-app.example"],
    ["a loopback address", "https://127.0.0.1:3000"],
    ["a private address", "https://10.0.4.7"],
    ["a link-local address", "https://[fe80::1]"],
    ["a localhost name", "https://app.localhost"],
  ])("refuses an application_url on %s", (_, url) => {
    const text = productionToml((t) => t.replace(/^application_url = ".*"$/m, `application_url = "${url}"`));
    expect(problems(text).join("\n")).toMatch(/application_url must be a public https address/);
    expect(() => extensionAppUrl(parseAppToml(text))).toThrow();
  });

  it("refuses redirect and proxy addresses left on another host", () => {
    const text = productionToml((t) => t.replace(`${PRODUCTION_URL}/proxy`, "https://localhost:3000/proxy").replace(`${PRODUCTION_URL}/auth/callback`, "https://old-host.example/auth/callback"));
    const found = problems(text).join("\n");
    expect(found).toMatch(/auth\.redirect_urls must all be on https:\/\/referrals\.merchant-app\.example/);
    expect(found).toMatch(/app_proxy\.url must be on/);
  });

  it("refuses scopes, webhooks or a proxy path that drift from shopify.app.toml", () => {
    const dropped = productionToml((t) => t.replace(/^(scopes = ")read_orders,/m, "$1"));
    expect(problems(dropped).join("\n")).toMatch(/access_scopes\.scopes differ/);
    const noRefunds = productionToml((t) => t.replace('topics = [ "refunds/create" ]', 'topics = [ "orders/updated" ]'));
    expect(problems(noRefunds).join("\n")).toMatch(/webhook subscriptions differ/);
    const otherPath = productionToml((t) => t.replace('subpath = "referrals"', 'subpath = "refer"'));
    expect(problems(otherPath).join("\n")).toMatch(/app_proxy prefix and subpath differ/);
  });

  it("takes the order topics delivered to Google Cloud Pub/Sub, and keeps the compliance and app topics on HTTPS", () => {
    const toPubSub = (t: string, topic: string, uri = "pubsub://referral-bridge-prod:shopify-orders") => t.replace(`uri = "/webhooks/${topic}"`, `uri = "${uri}"`);
    // Every order topic to one Pub/Sub topic: deployable.
    const orders = productionToml((t) => ["orders/paid", "orders/create", "orders/cancelled", "refunds/create"].reduce((text, topic) => toPubSub(text, topic), t));
    expect(orders).toContain('uri = "pubsub://referral-bridge-prod:shopify-orders"');
    expect(problems(orders)).toEqual([]);
    // The app's lifecycle and a compliance topic stay on HTTPS: refused on Pub/Sub, saying which.
    const uninstalled = productionToml((t) => toPubSub(t, "app/uninstalled"));
    expect(problems(uninstalled).join("\n")).toMatch(/only the order topics may go to Pub\/Sub; app\/uninstalled must stay on the app's HTTPS routes/);
    const redact = productionToml((t) => t.replace('uri = "/webhooks/customers/redact"', 'uri = "pubsub://referral-bridge-prod:shopify-orders"'));
    expect(problems(redact).join("\n")).toMatch(/customers\/redact must stay on the app's HTTPS routes/);
    // A Pub/Sub address that is not pubsub://<project>:<topic>.
    expect(problems(productionToml((t) => toPubSub(t, "orders/paid", "pubsub://shopify-orders"))).join("\n")).toMatch(/pubsub:\/\/shopify-orders is not pubsub:\/\/<project>:<topic>/);
  });
});
