// Writes prisma/postgresql/schema.prisma from prisma/schema.prisma: the same
// models, with the PostgreSQL provider. Run by `npm run db:sync-schema`.
import "./lib/require-node";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { postgresSchemaFrom } from "./postgres-schema";

const source = readFileSync("prisma/schema.prisma", "utf8");
mkdirSync("prisma/postgresql", { recursive: true });
writeFileSync("prisma/postgresql/schema.prisma", postgresSchemaFrom(source));
console.log("wrote prisma/postgresql/schema.prisma");
