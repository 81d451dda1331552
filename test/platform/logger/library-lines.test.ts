import "@shopify/shopify-api/adapters/node";
import { Writable } from "node:stream";
import { ApiVersion, LogSeverity, shopifyApi } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../app/platform/logger/logger.server";

// The Shopify library's debug lines are text it formats itself ("message | {key: value, ...}"), the customer
// signed in at the storefront among them as a bare number: the scrubber hashes it as it does other customer ids.

const CUSTOMER = "7210000000441";

/** What the library hands shopifyApp's logger.log for a line with this context, at debug. */
async function libraryLine(message: string, context: Record<string, unknown>): Promise<string> {
  const lines: string[] = [];
  const api = shopifyApi({
    apiKey: "client-id",
    apiSecretKey: "client-secret",
    hostName: "referrals.example.com",
    apiVersion: ApiVersion.October25,
    isEmbeddedApp: true,
    logger: { level: LogSeverity.Debug, log: async (_severity, line) => void lines.push(line) },
  });
  await api.logger.debug(message, context);
  return lines.at(-1)!;
}

function written(log: (logger: ReturnType<typeof createLogger>) => void): string {
  let output = "";
  const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => ((output += chunk.toString()), done()) });
  const logger = createLogger({ level: "debug", destination, credentialsKey: Buffer.alloc(32, 3).toString("base64") });
  log(logger);
  return output;
}

describe("the Shopify library's lines at LOG_LEVEL=debug", () => {
  it("carry a keyed hash for logged_in_customer_id, in its context and in a query string, never the number", async () => {
    const inContext = await libraryLine("Authenticating app proxy request", { shop: "referral-demo.myshopify.com", logged_in_customer_id: CUSTOMER });
    const inQuery = await libraryLine("Request", { url: `/apps/referrals/links?shop=referral-demo.myshopify.com&logged_in_customer_id=${CUSTOMER}&signature=abc` });
    expect(inContext).toContain(`logged_in_customer_id: ${CUSTOMER}`);

    const output = written((logger) => {
      logger.debug(inContext);
      logger.debug(inQuery);
      logger.debug({ detail: inContext }, "nested");
    });
    expect(output).not.toContain(CUSTOMER);
    const hashes = output.match(/logged_in_customer_id(: |=)\[customer:[0-9a-f]{16}\]/g) ?? [];
    expect(hashes).toHaveLength(3);
    // One person, one hash: the lines can still be followed.
    expect(new Set(hashes.map((h) => h.replace(/^logged_in_customer_id(: |=)/, ""))).size).toBe(1);
    // Other numbers stay.
    expect(written((logger) => logger.debug("order_id: 5820000000001"))).toContain("5820000000001");
  });

  it("a render error goes through the same logger: an email in its message is hashed", () => {
    const output = written((logger) => logger.error({ err: new Error("no ambassador for maria.lopez@example.com") }, "a page could not be rendered"));
    expect(output).not.toContain("maria.lopez@example.com");
    expect(output).toMatch(/\[email:[0-9a-f]{16}\]/);
  });
});
