import { PrismaClient } from "@prisma/client";
import { createAdapter } from "../platform/db/adapter.server";
import { attachPlainSql, createPlainSql } from "../platform/db/sql.server";
import { getEnv } from "./env.server";

declare global {
  // One client across Remix dev reloads.
  var __referralBridgePrisma: PrismaClient | undefined;
}

export function createPrismaClient(databaseUrl: string, plain = createPlainSql(databaseUrl)): PrismaClient {
  const client = new PrismaClient({ adapter: createAdapter(databaseUrl) });
  // SQLite's PRAGMAs are set as each connection opens (createAdapter).
  attachPlainSql(client, plain);
  return client;
}

/**
 * The client of this thread, made on first use. The job worker's hot path
 * is plain SQL, so a worker (its thread in the app process, or a worker
 * process) that runs only order jobs never makes one: no query compiler, no
 * second connection, about 10 MB less. The plain SQL beside it is there at once.
 */
function lazyPrismaClient(databaseUrl: string): PrismaClient {
  const plain = createPlainSql(databaseUrl);
  let client: PrismaClient | undefined;
  const made = () => (client ??= createPrismaClient(databaseUrl, plain));
  const lazy = new Proxy(Object.create(PrismaClient.prototype) as PrismaClient, {
    get(_, name) {
      // Nothing to close before it is made; and the client is no promise (an await or a return from an async function asks for then).
      if (name === "$disconnect" && !client) return async () => undefined;
      if (name === "then") return undefined;
      const real = made();
      const value: unknown = Reflect.get(real, name, real);
      return typeof value === "function" ? value.bind(real) : value;
    },
  });
  attachPlainSql(lazy, plain);
  return lazy;
}

const prisma = (globalThis.__referralBridgePrisma ??= lazyPrismaClient(getEnv().DATABASE_URL));

export default prisma;
