import { describe, expect, it } from "vitest";
import { authenticate } from "../../../app/wiring/shopify.server";
import { verifyShopifyWebhook } from "../../../app/platform/http/verify-webhook";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

// The fast ingress verifies order webhooks itself; it must say yes and no
// exactly where authenticate.webhook does.

async function viaAuthenticate(request: Request): Promise<number> {
  try {
    await authenticate.webhook(request);
    return 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

async function viaVerifier(request: Request): Promise<number> {
  const rawBody = Buffer.from(await request.arrayBuffer());
  const verification = verifyShopifyWebhook(
    { method: request.method, rawBody, header: (name) => request.headers.get(name), expectedTopic: "orders/paid" },
    process.env.SHOPIFY_API_SECRET!,
  );
  return verification.ok ? 200 : verification.status;
}

/** The status each variant gets, which both must agree on. */
const EXPECTED: Record<string, number> = {
  valid: 200,
  "signed with another secret": 401,
  "body changed after signing": 401,
  "no signature": 400,
  "signature not base64 of a digest": 401,
  "no topic": 400,
  "no shop domain": 400,
  "no api version": 400,
  "no webhook id": 400,
  "no triggered-at (optional)": 200,
  "a GET": 405,
};

function variants(): Record<string, () => Request> {
  const body = { id: 5001, name: "#1001" };
  const valid = () => signedWebhook({ topic: "orders/paid", body });
  const withHeaders = (change: (headers: Headers) => void) => () => {
    const request = valid();
    const headers = new Headers(request.headers);
    change(headers);
    return new Request(request.url, { method: "POST", headers, body: JSON.stringify(body) });
  };
  return {
    valid,
    "signed with another secret": () => signedWebhook({ topic: "orders/paid", body, secret: "someone-else" }),
    "body changed after signing": () => {
      const request = valid();
      return new Request(request.url, { method: "POST", headers: request.headers, body: JSON.stringify({ ...body, id: 5002 }) });
    },
    "no signature": withHeaders((h) => h.delete("X-Shopify-Hmac-Sha256")),
    "signature not base64 of a digest": withHeaders((h) => h.set("X-Shopify-Hmac-Sha256", "not-a-signature")),
    "no topic": withHeaders((h) => h.delete("X-Shopify-Topic")),
    "no shop domain": withHeaders((h) => h.delete("X-Shopify-Shop-Domain")),
    "no api version": withHeaders((h) => h.delete("X-Shopify-Api-Version")),
    "no webhook id": withHeaders((h) => h.delete("X-Shopify-Webhook-Id")),
    "no triggered-at (optional)": withHeaders((h) => h.delete("X-Shopify-Triggered-At")),
    "a GET": () => new Request(valid().url, { method: "GET", headers: valid().headers }),
  };
}

describe("order webhook verification", () => {
  for (const [name, make] of Object.entries(variants())) {
    it(`answers like authenticate.webhook: ${name}`, async () => {
      expect(await viaAuthenticate(make())).toBe(EXPECTED[name]);
      expect(await viaVerifier(make())).toBe(EXPECTED[name]);
    });
  }

  it("reads the shop, topic, webhook id and trigger time the way authenticate.webhook gives them", async () => {
    const triggeredAt = "2026-11-21T10:00:00.000Z";
    const request = signedWebhook({ topic: "orders/paid", body: { id: 1 }, webhookId: "wh-1", triggeredAt });
    const verification = verifyShopifyWebhook(
      { method: "POST", rawBody: Buffer.from(await request.clone().arrayBuffer()), header: (name) => request.headers.get(name), expectedTopic: "orders/paid" },
      process.env.SHOPIFY_API_SECRET!,
      new Date("2026-11-21T10:01:00.000Z"),
    );
    const context = await authenticate.webhook(request);
    expect(verification).toEqual({
      ok: true,
      webhook: { shop: TEST_SHOP, topic: context.topic, webhookId: "wh-1", apiVersion: "2026-10", triggeredAt: new Date(triggeredAt) },
    });
    expect(context.topic).toBe("ORDERS_PAID");
  });
});
