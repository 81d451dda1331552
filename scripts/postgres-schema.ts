const HEADER =
  "// GENERATED from prisma/schema.prisma by `npm run db:sync-schema`. Do not edit.\n";

export function postgresSchemaFrom(sqliteSchema: string): string {
  const replaced = sqliteSchema.replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"');
  if (replaced === sqliteSchema) throw new Error('prisma/schema.prisma has no provider = "sqlite" line');
  return HEADER + replaced;
}
