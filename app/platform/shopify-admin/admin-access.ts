import type { AdminGraphql } from "./admin-graphql.server";

export type AdminConnection = { ok: true; admin: AdminGraphql } | { ok: false; reason: string };

/** Gives a shop's Admin GraphQL client (its offline token), or why there is none; the wiring builds it, tests give a fake. */
export type AdminForShop = (shop: string) => Promise<AdminConnection>;
