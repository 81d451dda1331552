// Shopify's published Admin GraphQL schema at the app's API version, as
// @shopify/dev-mcp ships it (introspection JSON, gzipped), built once.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { ApiVersion } from "@shopify/shopify-api";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

/** The same version as app/wiring/shopify.server's API_VERSION (test/offers checks it). */
export const STANDIN_API_VERSION: string = ApiVersion.October26;

let built: GraphQLSchema | undefined;

export function adminSchema(): GraphQLSchema {
  if (built) return built;
  // The package exports no path to its data; it is installed at the root (a devDependency).
  const data = fileURLToPath(new URL(`../../node_modules/@shopify/dev-mcp/dist/data/admin_${STANDIN_API_VERSION}.json.gz`, import.meta.url));
  const raw = JSON.parse(gunzipSync(readFileSync(data)).toString("utf8")) as { data?: IntrospectionQuery } & IntrospectionQuery;
  built = buildClientSchema(raw.data ?? raw);
  return built;
}
