import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { defineConfig } from "prisma/config";
import { createAdapter, DEFAULT_DATABASE_URL, databaseKind, schemaPath } from "./app/platform/db/adapter.server";

// The schema's datasource reads DATABASE_URL, so the embedded default is set here.
const url = (process.env.DATABASE_URL ||= DEFAULT_DATABASE_URL);
if (databaseKind(url) === "sqlite") {
  mkdirSync(dirname(url.slice("file:".length)), { recursive: true });
}
const schema = schemaPath(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema,
  migrations: { path: `${dirname(schema)}/migrations` },
  adapter: async () => createAdapter(url),
});
