// Every GraphQL document the headless channel sends, checked against Shopify's
// published 2026-10 schemas (@shopify/dev-mcp's copies): the kit's Storefront
// API cart documents and the app's one Customer Account API query. Hydrogen's
// own cart documents are checked as they are sent, by the Storefront API
// stand-in (headless-kit.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { CUSTOMER_ACCOUNT_API_VERSION, CUSTOMER_ID_QUERY } from "../../../app/platform/shopify-customer-account/customer-token.server";
import { customerAccountSchema, STOREFRONT_SCHEMA_VERSION, storefrontSchema } from "../../../test/support/storefront-schemas";
import { STOREFRONT_API_VERSION, STOREFRONT_DOCUMENTS } from "../src";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("the headless channel's GraphQL documents", () => {
  it("are at the version of the schemas they are checked against", () => {
    expect(STOREFRONT_API_VERSION).toBe(STOREFRONT_SCHEMA_VERSION);
    expect(CUSTOMER_ACCOUNT_API_VERSION).toBe(STOREFRONT_SCHEMA_VERSION);
  });

  it.each(Object.entries(STOREFRONT_DOCUMENTS))("%s is valid against the Storefront API schema", (_name, document) => {
    expect(validate(storefrontSchema(), parse(document)).map((e) => e.message)).toEqual([]);
  });

  it("the app's token owner query is valid against the Customer Account API schema", () => {
    expect(validate(customerAccountSchema(), parse(CUSTOMER_ID_QUERY)).map((e) => e.message)).toEqual([]);
  });

  it("a misspelt field is caught (the check is not empty)", () => {
    const broken = STOREFRONT_DOCUMENTS.CART_ATTRIBUTES_UPDATE.replace("attributes { key value }", "attributes { key valu }");
    expect(validate(storefrontSchema(), parse(broken)).map((e) => e.message)).toEqual([expect.stringContaining('Cannot query field "valu"')]);
  });

  it("the package and its example hold no other document", () => {
    const holders = [...sourceFiles(path.join(packageRoot, "src")), ...sourceFiles(path.join(packageRoot, "examples"))]
      .filter((file) => readFileSync(file, "utf8").includes("#graphql"))
      .map((file) => path.relative(packageRoot, file));
    expect(holders).toEqual(["src/documents.ts"]);
  });
});
