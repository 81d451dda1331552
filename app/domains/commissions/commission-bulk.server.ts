import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { insertJob } from "../../platform/queue/enqueue.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import type { Logger } from "../../platform/logger/logger.server";
import type { ListCommissionsFilter, ReferralClient } from "../../platform/referral-api";
import { COMMISSION_BULK_JOB } from "./job-kinds";
import { commissionEntry, readCommissionEntry } from "./commission-entry";
import { decideInJob } from "./decision-row.server";

// "Select all" across pages on the Commissions page: every pending
// commission matching the page's filters is approved or denied by a job,
// not by the request. The job first reads the list page by page (nothing
// changes while it reads, so the pages stay put), then decides each
// commission in the list's order. Both steps store their place after each
// page or commission: a retried job resumes there, and a commission decided
// just before a crash is found "not pending" on the retry and counted as
// skipped, never changed twice.

/** A list of more than this is refused (the service pages by 100). */
export const MAX_BULK_PAGES = 1_000;
/** How many failures the page lists; the rest are counted. */
const FAILURES_KEPT = 20;
/** A finished run stays on the page this long. */
const SHOWN_AFTER_FINISH_MS = 60 * 60_000;

export type BulkDecision = "approve" | "deny";

export interface CommissionBulkView {
  id: string;
  decision: BulkDecision;
  status: "running" | "done" | "failed";
  phase: "collect" | "decide";
  /** Pages read so far while collecting. */
  pagesRead: number;
  total: number | null;
  position: number;
  succeeded: number;
  skipped: number;
  failed: number;
  failures: { uid: string; message: string }[];
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

const storedFilter = z.object({
  status: z.literal("pending"),
  email: z.string().optional(),
  sandbox: z.boolean().optional(),
  isWelcomeBonus: z.boolean().optional(),
  createdAfter: z.string().optional(),
  createdBefore: z.string().optional(),
});

/**
 * Stores a run for the filters the page showed and queues its job; the
 * page has checked them. One run at a time per shop.
 */
export async function startBulkRun(
  db: PrismaClient,
  shop: string,
  decision: BulkDecision,
  filter: ListCommissionsFilter & { status: "pending" },
  now = new Date()
): Promise<{ ok: true; runId: string } | { ok: false; refused: "running" }> {
  const running = await db.commissionBulkRun.findFirst({ where: { shop, status: "running" }, select: { id: true } });
  if (running) return { ok: false, refused: "running" };
  // The run and its job are stored together: a run never waits for a job that was not stored.
  const runId = await db.$transaction(async (tx) => {
    const run = await tx.commissionBulkRun.create({
      data: { shop, decision, filters: JSON.stringify(storedFilter.parse(jsonable(filter))), startedAt: now },
    });
    await insertJob(tx, COMMISSION_BULK_JOB, { shop, subject: `run:${run.id}`, payload: { runId: run.id }, triggeredAt: now });
    return run.id;
  });
  notifyJobEnqueued();
  return { ok: true, runId };
}

/** Dates as the strings the client sends anyway; undefined keys dropped. */
function jsonable(filter: ListCommissionsFilter): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v])
  );
}

/** The shop's latest run while it runs, or for an hour after it finished. */
export async function commissionBulkView(db: PrismaClient, shop: string, now = new Date()): Promise<CommissionBulkView | null> {
  const run = await db.commissionBulkRun.findFirst({ where: { shop }, orderBy: { startedAt: "desc" } });
  if (!run) return null;
  if (run.finishedAt && now.getTime() - run.finishedAt.getTime() > SHOWN_AFTER_FINISH_MS) return null;
  return {
    id: run.id,
    decision: run.decision as BulkDecision,
    status: run.status as CommissionBulkView["status"],
    phase: run.phase as CommissionBulkView["phase"],
    pagesRead: run.nextPage - 1,
    total: run.total,
    position: run.position,
    succeeded: run.succeeded,
    skipped: run.skipped,
    failed: run.failed,
    failures: JSON.parse(run.failures) as CommissionBulkView["failures"],
    error: run.error,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

export interface BulkDeps {
  db: PrismaClient;
  client: ReferralClient;
  logger?: Logger;
  now(): Date;
}

/**
 * Runs (or resumes) a run. Throws what the job should retry (the service
 * unreachable, rate limiting, refused credentials); the place is kept.
 */
export async function runCommissionBulk(deps: BulkDeps, shop: string, runId: string): Promise<void> {
  const { db, client } = deps;
  let run = await db.commissionBulkRun.findFirst({ where: { id: runId, shop } });
  if (!run || run.status !== "running") return;
  const filter = storedFilter.parse(JSON.parse(run.filters));
  const decision = run.decision as BulkDecision;

  if (run.phase === "collect") {
    const items: string[] = JSON.parse(run.items) as string[];
    const seen = new Set(items.map((item) => readCommissionEntry(item).commissionUid));
    let page = run.nextPage;
    for (;;) {
      if (page > MAX_BULK_PAGES) {
        await finish(
          db,
          run.id,
          "failed",
          `More than ${MAX_BULK_PAGES * 100} commissions match; narrow the filters.`,
          deps.now()
        );
        return;
      }
      const result = await client.listCommissions({ ...filter, page });
      for (const c of result.items) {
        if (c.status !== "pending" || seen.has(c.commissionUid)) continue;
        seen.add(c.commissionUid);
        items.push(commissionEntry(c));
      }
      const last = !result.hasMore || result.items.length === 0;
      await db.commissionBulkRun.update({
        where: { id: run.id },
        data: { items: JSON.stringify(items), nextPage: page + 1, ...(last ? { phase: "decide", total: items.length } : {}) },
      });
      if (last) break;
      page += 1;
    }
    run = await db.commissionBulkRun.findUniqueOrThrow({ where: { id: run.id } });
  }

  const items = JSON.parse(run.items) as string[];
  const failures = JSON.parse(run.failures) as { uid: string; message: string }[];
  for (let position = run.position; position < items.length; position += 1) {
    const result = await decideInJob(deps, {
      shop,
      service: "ask",
      state: decision === "approve" ? "approved" : "denied",
      by: "merchant",
      commission: readCommissionEntry(items[position]!),
    });
    if (!result.ok && !result.skipped && failures.length < FAILURES_KEPT)
      failures.push({ uid: result.uid, message: result.message });
    // Moves only from the place this runner read: a second runner of the same run stops.
    const moved = await db.commissionBulkRun.updateMany({
      where: { id: run.id, status: "running", position },
      data: {
        position: position + 1,
        ...(result.ok
          ? { succeeded: { increment: 1 } }
          : result.skipped
          ? { skipped: { increment: 1 } }
          : { failed: { increment: 1 } }),
        ...(!result.ok && !result.skipped ? { failures: JSON.stringify(failures) } : {}),
      },
    });
    if (moved.count === 0) return;
  }
  await finish(db, run.id, "done", null, deps.now());
  const done = await db.commissionBulkRun.findUniqueOrThrow({ where: { id: run.id } });
  deps.logger?.info(
    { shop, decision, total: done.total, succeeded: done.succeeded, skipped: done.skipped, failed: done.failed },
    "commissions decided in bulk"
  );
}

async function finish(db: PrismaClient, id: string, status: "done" | "failed", error: string | null, now: Date): Promise<void> {
  await db.commissionBulkRun.updateMany({ where: { id, status: "running" }, data: { status, error, finishedAt: now } });
}

/** The job gave up: the page says why. */
export async function failCommissionBulk(
  db: PrismaClient,
  shop: string,
  runId: string,
  reason: string,
  now: Date
): Promise<void> {
  await db.commissionBulkRun.updateMany({
    where: { id: runId, shop, status: "running" },
    data: { status: "failed", error: reason, finishedAt: now },
  });
}
