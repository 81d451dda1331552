// Shopify's published Storefront and Customer Account GraphQL schemas at
// 2026-10, as @shopify/dev-mcp ships them (introspection JSON, gzipped), each
// built once. The Admin schema is admin-schema.ts.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

export const STOREFRONT_SCHEMA_VERSION = "2026-10";

const built = new Map<string, GraphQLSchema>();

function load(file: string): GraphQLSchema {
  const known = built.get(file);
  if (known) return known;
  const data = fileURLToPath(new URL(`../../node_modules/@shopify/dev-mcp/dist/data/${file}`, import.meta.url));
  const raw = JSON.parse(gunzipSync(readFileSync(data)).toString("utf8")) as { data?: IntrospectionQuery } & IntrospectionQuery;
  const schema = buildClientSchema(raw.data ?? raw);
  built.set(file, schema);
  return schema;
}

export const storefrontSchema = () => load(`storefront-graphql_${STOREFRONT_SCHEMA_VERSION}.json.gz`);
export const customerAccountSchema = () => load(`customer_${STOREFRONT_SCHEMA_VERSION}.json.gz`);
