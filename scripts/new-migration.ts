// Writes a new migration for both databases from what changed in
// prisma/schema.prisma since the last commit:  npm run db:migration -- <name>
// The diff is schema to schema (the committed file against the working one),
// so no shadow database is needed; PostgreSQL's run still wants a server to
// talk to, so it gets a throwaway local cluster (Debian's postgresql package).
import "./lib/require-node";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { postgresSchemaFrom } from "./postgres-schema";
import { startThrowawayPostgres } from "./throwaway-postgres";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <snake_case_name>");
  process.exit(2);
}
const folder = `${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}_${name}`;
mkdirSync("data", { recursive: true });

function committedSchema(): string | undefined {
  try {
    return execFileSync("git", ["show", "HEAD:prisma/schema.prisma"], { stdio: "pipe" }).toString();
  } catch {
    return undefined;
  }
}

const current = readFileSync("prisma/schema.prisma", "utf8");
const previous = committedSchema();
writeFileSync("prisma/postgresql/schema.prisma", postgresSchemaFrom(current));

function diff(kind: "sqlite" | "postgresql", databaseUrl: string): void {
  const migrations = kind === "sqlite" ? "prisma/migrations" : "prisma/postgresql/migrations";
  const target = kind === "sqlite" ? "prisma/schema.prisma" : "prisma/postgresql/schema.prisma";
  const from = previous === undefined ? ["--from-empty"] : ["--from-schema-datamodel", `data/previous.${kind}.prisma`];
  if (previous !== undefined) {
    writeFileSync(`data/previous.${kind}.prisma`, kind === "sqlite" ? previous : postgresSchemaFrom(previous));
  }
  const scratch = `data/${folder}.${kind}.sql`;
  execFileSync("npx", ["prisma", "migrate", "diff", ...from, "--to-schema-datamodel", target, "--script", "--output", scratch], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  const sql = readFileSync(scratch, "utf8");
  rmSync(scratch);
  rmSync(`data/previous.${kind}.prisma`, { force: true });
  if (!/^\s*[A-Z]/m.test(sql)) {
    console.log(`${kind}: no change`);
    return;
  }
  mkdirSync(`${migrations}/${folder}`, { recursive: true });
  writeFileSync(`${migrations}/${folder}/migration.sql`, sql);
  console.log(`wrote ${migrations}/${folder}/migration.sql`);
}

diff("sqlite", "file:./data/migration-scratch.sqlite");
rmSync("data/migration-scratch.sqlite", { force: true });
const pg = await startThrowawayPostgres();
try {
  diff("postgresql", pg.url);
} finally {
  pg.stop();
}
