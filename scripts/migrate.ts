// `npm run setup` (after prisma generate): brings the database of
// DATABASE_URL up to the committed migrations, on SQLite or PostgreSQL.
import "./lib/require-node";
import { DEFAULT_DATABASE_URL } from "../app/platform/db/adapter.server";
import { applyMigrations, committedMigrations, MigrationError } from "../app/platform/db/migrate.server";

const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
try {
  const applied = await applyMigrations(url);
  const total = committedMigrations(url).length;
  if (applied.length === 0) console.log(`The database is up to date (${total} migrations).`);
  else console.log(`Applied ${applied.length} of ${total} migrations:\n${applied.map((name) => `  ${name}`).join("\n")}`);
} catch (error) {
  console.error(error instanceof MigrationError ? error.message : error);
  process.exit(1);
}
