import type { PrismaClient } from "@prisma/client";
import { currentKeyOf, isSealed, openWithKeys, sealToken, UnreadableSealedValue, type CredentialsKey, type SealContext } from "./sealing.server";

// The second half of a CREDENTIALS_KEY rotation (docs/operations.md): every
// sealed value still sealed with a previous key is sealed again with the
// current one. Each write is conditional on the value read, so a run beside
// the app (which may seal a new value meanwhile) or a second run changes each
// value at most once; a run after everything is current changes nothing.

/** Where a value no key opens sits, for the operator (no value, no person). */
export interface UnreadablePlace {
  column: SealContext["column"];
  shop: string;
  /** The row's id, where the row has one of its own. */
  id?: string;
}

export interface ResealCounts {
  /** Sealed again with the current key. */
  resealed: number;
  /** Already sealed with the current key. */
  current: number;
  /** Opened by no key: left as they were. */
  unreadable: UnreadablePlace[];
}

/** The job kind whose payload holds a sealed identity (the customers/redact waiting for its turn). */
const SEALED_PAYLOAD_JOB = "privacy.customer-redact";

type Outcome = { state: "current" } | { state: "unreadable" } | { state: "resealed"; value: string };

function resealOne(sealed: string, keys: CredentialsKey, context: SealContext): Outcome {
  try {
    const opened = openWithKeys(sealed, keys, context);
    return opened.current ? { state: "current" } : { state: "resealed", value: sealToken(opened.value, currentKeyOf(keys), context) };
  } catch (error) {
    if (error instanceof UnreadableSealedValue) return { state: "unreadable" };
    throw error;
  }
}

/** Reseals every sealed column; safe to run again, and beside running app processes. */
export async function resealWithCurrentKey(db: PrismaClient, keys: CredentialsKey): Promise<ResealCounts> {
  const counts: ResealCounts = { resealed: 0, current: 0, unreadable: [] };
  /** One value: `write` stores the new one only where the old one still is, and says how many rows it changed. */
  const visit = async (sealed: string, place: UnreadablePlace, write: (fresh: string) => Promise<number>) => {
    const outcome = resealOne(sealed, keys, { shop: place.shop, column: place.column });
    if (outcome.state === "current") counts.current += 1;
    else if (outcome.state === "unreadable") counts.unreadable.push(place);
    else counts.resealed += await write(outcome.value);
  };

  const shops = await db.shop.findMany({
    select: { shop: true, serviceTokenSealed: true, inboundWebhookSecretSealed: true, inboundWebhookPreviousSecretSealed: true },
  });
  for (const row of shops) {
    for (const column of ["serviceTokenSealed", "inboundWebhookSecretSealed", "inboundWebhookPreviousSecretSealed"] as const) {
      const old = row[column];
      if (!isSealed(old)) continue;
      await visit(old, { column: `Shop.${column}`, shop: row.shop }, async (fresh) => {
        const { count } = await db.shop.updateMany({ where: { shop: row.shop, [column]: old }, data: { [column]: fresh } });
        return count;
      });
    }
  }

  const logs = await db.redactionLog.findMany({ where: { pendingEmailSealed: { not: null } }, select: { id: true, shop: true, pendingEmailSealed: true } });
  for (const log of logs) {
    const old = log.pendingEmailSealed;
    if (!isSealed(old)) continue;
    await visit(old, { column: "RedactionLog.pendingEmailSealed", shop: log.shop, id: log.id }, async (fresh) => {
      const { count } = await db.redactionLog.updateMany({ where: { id: log.id, pendingEmailSealed: old }, data: { pendingEmailSealed: fresh } });
      return count;
    });
  }

  const jobs = await db.job.findMany({ where: { kind: SEALED_PAYLOAD_JOB }, select: { id: true, shop: true, payload: true } });
  for (const job of jobs) {
    const payload = JSON.parse(job.payload) as { who?: unknown };
    if (typeof payload.who !== "string" || !isSealed(payload.who)) continue;
    await visit(payload.who, { column: `Job.payload:${SEALED_PAYLOAD_JOB}`, shop: job.shop, id: job.id }, async (fresh) => {
      const { count } = await db.job.updateMany({ where: { id: job.id, payload: job.payload }, data: { payload: JSON.stringify({ ...payload, who: fresh }) } });
      return count;
    });
  }

  const sessions = await db.session.findMany({ select: { id: true, shop: true, accessToken: true, refreshToken: true } });
  for (const session of sessions) {
    for (const column of ["accessToken", "refreshToken"] as const) {
      const old = session[column];
      if (!isSealed(old)) continue;
      await visit(old, { column: `Session.${column}`, shop: session.shop, id: session.id }, async (fresh) => {
        const { count } = await db.session.updateMany({ where: { id: session.id, [column]: old }, data: { [column]: fresh } });
        return count;
      });
    }
  }
  return counts;
}
