import { PrismaClient } from "@prisma/client";
import { createAdapter } from "./db/adapter.server";
import { getEnv } from "./env.server";

declare global {
  // One client across Remix dev reloads.
  var __referralBridgePrisma: PrismaClient | undefined;
}

export function createPrismaClient(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: createAdapter(databaseUrl) });
}

const prisma = (globalThis.__referralBridgePrisma ??= createPrismaClient(getEnv().DATABASE_URL));

export default prisma;
