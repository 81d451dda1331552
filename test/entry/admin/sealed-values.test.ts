import "./browser-env";
import { createCipheriv, randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { openLegacy, openToken, sealToken } from "../../../app/platform/crypto/sealing.server";
import { action } from "../../../app/routes/app.settings";
import { startAppServer, testAppEnv } from "./app-server";
import { connectShop, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { submit, type ActionBody } from "./admin-requests";

// Sealed values at rest: the full GCM tag, bound to their shop and column,
// under a key derived for sealing alone, and old values re-sealed at start.

const sandbox = useTestSandbox();
const key = () => getEnv().CREDENTIALS_KEY;
const OTHER_SHOP = "other-shop.myshopify.com";
const TOKEN_COLUMN = "Shop.serviceTokenSealed" as const;

beforeEach(async () => {
  await installShop();
});

/** Connect with the stored token (empty token field): the settings action opens the sealed value. */
async function reconnectWithStoredToken(shop = TEST_SHOP) {
  const { body } = await submit(action, "/app/settings", { intent: "connect", baseUrl: sandbox.baseUrl, username: sandbox.username, token: "" }, { shop });
  return body as ActionBody<typeof action>;
}

/** A value sealed the old way (v1): the raw key, no additional data. */
function legacySeal(value: string, base64Key: string, tagBytes = 16): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(base64Key, "base64"), iv, { authTagLength: tagBytes });
  const ciphertext = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

describe("sealed values", () => {
  it("opens a stored token only with its full 16-byte tag", async () => {
    await connectShop(sandbox);
    expect((await reconnectWithStoredToken()).ok).toBe(true);
    const row = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    const [version, iv, tag, ciphertext] = row.serviceTokenSealed!.split(".");
    expect(version).toBe("v2");
    expect(Buffer.from(tag!, "base64url")).toHaveLength(16);

    const shortTag = [version, iv, Buffer.from(tag!, "base64url").subarray(0, 4).toString("base64url"), ciphertext].join(".");
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { serviceTokenSealed: shortTag } });
    const refused = await reconnectWithStoredToken();
    expect(refused).toMatchObject({ ok: false, fieldErrors: { token: "The saved token can't be read any more. Enter it again." } });
  });

  it("does not open one shop's sealed token in another shop's row", async () => {
    await connectShop(sandbox);
    await installShop(OTHER_SHOP);
    const { serviceTokenSealed } = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    await prisma.shop.upsert({
      where: { shop: OTHER_SHOP },
      create: { shop: OTHER_SHOP, serviceTokenSealed, serviceBaseUrl: sandbox.baseUrl, serviceUsername: sandbox.username },
      update: { serviceTokenSealed, serviceBaseUrl: sandbox.baseUrl, serviceUsername: sandbox.username },
    });
    expect(await reconnectWithStoredToken(OTHER_SHOP)).toMatchObject({ ok: false, fieldErrors: { token: expect.stringMatching(/can't be read/) } });
    // Nor in another column of the same shop.
    expect(() => openToken(serviceTokenSealed!, key(), { shop: TEST_SHOP, column: "Shop.inboundWebhookSecretSealed" })).toThrow();
    expect(openToken(serviceTokenSealed!, key(), { shop: TEST_SHOP, column: TOKEN_COLUMN })).toBe(sandbox.token);
  });

  it("seals under a key derived for sealing, not CREDENTIALS_KEY itself", () => {
    const sealed = sealToken("secret-token", key(), { shop: TEST_SHOP, column: TOKEN_COLUMN });
    const [, iv, tag, ciphertext] = sealed.split(".");
    const asV1 = ["v1", iv, tag, ciphertext].join(".");
    expect(() => openToken(asV1, key(), { shop: TEST_SHOP, column: TOKEN_COLUMN })).toThrow();
  });

  it("re-seals v1 values when the app starts, and refuses a v1 value with a short tag", async () => {
    await connectShop(sandbox);
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { serviceTokenSealed: legacySeal(sandbox.token, key()), inboundWebhookSecretSealed: legacySeal("hook-secret", key()) } });
    await prisma.redactionLog.create({ data: { shop: TEST_SHOP, subjectHash: "x", deleted: "{}", serviceState: "pending", pendingEmailSealed: legacySeal("jon@example.com", key()) } });

    const server = await startAppServer(testAppEnv());
    try {
      const row = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
      expect(openToken(row.serviceTokenSealed!, key(), { shop: TEST_SHOP, column: TOKEN_COLUMN })).toBe(sandbox.token);
      expect(openToken(row.inboundWebhookSecretSealed!, key(), { shop: TEST_SHOP, column: "Shop.inboundWebhookSecretSealed" })).toBe("hook-secret");
      const log = await prisma.redactionLog.findFirstOrThrow();
      expect(openToken(log.pendingEmailSealed!, key(), { shop: TEST_SHOP, column: "RedactionLog.pendingEmailSealed" })).toBe("jon@example.com");
      expect(server.output()).not.toContain("hook-secret");
    } finally {
      await server.stop();
    }
    expect((await reconnectWithStoredToken()).ok).toBe(true);
    expect(() => openLegacy(legacySeal("jon@example.com", key(), 4), key())).toThrow(/16 bytes/);
  }, 60_000);
});
