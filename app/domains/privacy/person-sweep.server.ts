import { Prisma } from "@prisma/client";
import { likeCandidate } from "../../platform/db/like-pattern";
import { ANY_STATUS } from "../../platform/queue/shop-jobs.server";
import { mentions, type PersonNeedles, personPattern } from "./person-text";

type Tx = Prisma.TransactionClient;

/** Every text column of the shop's tables that can hold a customer's email, name or id. */
export const PERSONAL_TEXT_COLUMNS = {
  OrderRecord: ["email", "customerId", "results", "explanation", "statusReason", "lastError"],
  Job: ["payload", "lastError"],
  ServiceEvent: ["payload", "emails", "detail", "reference"],
  PayoutCredit: ["email", "customerId", "lastError"],
  DataRequest: ["email", "customerId", "report", "statusDetail", "ordersRequested"],
  RedactionLog: ["serviceDetail"],
} as const;

export type PersonalTable = keyof typeof PERSONAL_TEXT_COLUMNS;
export type FoundRow = { id: string } & Record<string, string | null>;

/**
 * The shop's rows of `table` that mention the person in any of its text
 * columns: the database narrows with LIKE (ASCII folding only), the app
 * decides with Unicode folding.
 */
export async function rowsMentioning(tx: Tx, table: PersonalTable, shop: string, needles: PersonNeedles, also: string[] = []): Promise<FoundRow[]> {
  const pattern = personPattern(needles);
  if (!pattern) return [];
  const columns = PERSONAL_TEXT_COLUMNS[table];
  const likes = [needles.email, needles.customerId].filter((n): n is string => Boolean(n)).map(likeCandidate);
  const conditions = columns.flatMap((column) => likes.map((like) => Prisma.sql`lower(${Prisma.raw(`"${column}"`)}) LIKE ${like} ESCAPE '\\'`));
  const selected = Prisma.raw(["id", ...also, ...columns].map((c) => `"${c}"`).join(", "));
  // No index on jobs leads with the shop: naming every status lets (status, shop, runAt) find the shop's (decision 021).
  const ofShop = table === "Job" ? Prisma.sql`"shop" = ${shop} AND "status" IN (${Prisma.join(ANY_STATUS)})` : Prisma.sql`"shop" = ${shop}`;
  const rows = await tx.$queryRaw<FoundRow[]>`SELECT ${selected} FROM ${Prisma.raw(`"${table}"`)} WHERE ${ofShop} AND (${Prisma.join(conditions, " OR ")})`;
  return rows.filter((row) => columns.some((column) => mentions(row[column], pattern)));
}
