import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { databaseKind } from "../../../app/platform/db/adapter.server";
import { postgresSchemaFrom } from "../../../scripts/postgres-schema";

describe("database", () => {
  it("keeps the PostgreSQL schema generated from the SQLite one (npm run db:sync-schema)", () => {
    const expected = postgresSchemaFrom(readFileSync("prisma/schema.prisma", "utf8"));
    expect(readFileSync("prisma/postgresql/schema.prisma", "utf8")).toBe(expected);
  });

  it("has the same migrations for both databases", () => {
    const list = (dir: string) =>
      readdirSync(dir).filter((name) => /^\d/.test(name));
    expect(list("prisma/postgresql/migrations")).toEqual(list("prisma/migrations"));
  });

  it("runs on the database the test run asked for, built from the migrations", async () => {
    const kind = databaseKind(process.env.DATABASE_URL!);
    expect(kind).toBe(process.env.TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite");
    await prisma.shop.create({ data: { shop: "db-check.myshopify.com" } });
    const shop = await prisma.shop.findUniqueOrThrow({ where: { shop: "db-check.myshopify.com" } });
    expect(shop.connectionStatus).toBe("not_connected");
    expect(shop.trigger).toBe("orders_paid");
  });
});
