// The database statements of the benchmark's processes: as the app's own
// database layer counts them (DB_STATEMENT_COUNTS_DIR, app/platform/db/statement-counts.ts),
// and on PostgreSQL as the server counts them (pg_stat_statements), by the
// role each kind of process connects as.
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { ThreadStatementCounts } from "../../app/platform/db/statement-counts";

export const COUNTS_DIR = ".cache/bench/statement-counts";

export function clearCounts(): void {
  rmSync(COUNTS_DIR, { recursive: true, force: true });
  mkdirSync(COUNTS_DIR, { recursive: true });
}

/** What each thread of the app and worker processes has counted so far. */
export function threadCounts(): ThreadStatementCounts[] {
  return readdirSync(COUNTS_DIR)
    .filter((name) => name.endsWith(".json"))
    .flatMap((name) => {
      // A thread may be writing it: read it again then.
      for (let attempt = 0; ; attempt++) {
        try {
          return [JSON.parse(readFileSync(join(COUNTS_DIR, name), "utf8")) as ThreadStatementCounts];
        } catch (error) {
          if (attempt === 5) throw error;
        }
      }
    });
}

/** Statements counted between two readings, by process (pid), thread (tid) and source. */
export function countsBetween(before: ThreadStatementCounts[], after: ThreadStatementCounts[]): ThreadStatementCounts[] {
  return after.map((thread) => {
    const earlier = before.find((b) => b.pid === thread.pid && b.threadId === thread.threadId);
    const counts = Object.fromEntries(Object.entries(thread.counts).map(([source, n]) => [source, n - (earlier?.counts[source] ?? 0)]));
    return { ...thread, counts };
  });
}

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The roles the bench's app and worker processes connect as, so that pg_stat_statements (which keeps no application_name) tells them apart. */
export const ROLES = { app: "bench_app", worker: "bench_worker" } as const;

/**
 * pg_stat_statements in a schema of its own (the app's schema stays as its
 * migrations leave it), and a login role per process kind, with the same
 * rights as the bench's own (superuser), so the app behaves as it does as postgres.
 */
export async function preparePostgresCounting(db: PrismaClient): Promise<void> {
  await db.$executeRawUnsafe("CREATE SCHEMA bench_stats");
  await db.$executeRawUnsafe("CREATE EXTENSION pg_stat_statements SCHEMA bench_stats");
  for (const role of Object.values(ROLES)) await db.$executeRawUnsafe(`CREATE ROLE ${role} LOGIN SUPERUSER`);
}

/** The URL `url` with another user. */
export function asRole(url: string, role: string): string {
  const parsed = new URL(url);
  parsed.username = role;
  return parsed.toString();
}

export async function resetPostgresCounts(db: PrismaClient): Promise<void> {
  await db.$executeRawUnsafe("SELECT bench_stats.pg_stat_statements_reset()");
}

/** Statements run since the reset, by role; `evicted`: entries pg_stat_statements had to drop (then the counts are short). */
export async function postgresCounts(db: PrismaClient): Promise<{ byRole: Record<string, number>; evicted: number }> {
  const rows = await db.$queryRawUnsafe<{ role: string; calls: bigint }[]>(
    "SELECT r.rolname::text AS role, sum(s.calls)::bigint AS calls FROM bench_stats.pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid GROUP BY r.rolname::text",
  );
  const [info] = await db.$queryRawUnsafe<{ dealloc: bigint }[]>("SELECT dealloc FROM bench_stats.pg_stat_statements_info");
  return { byRole: Object.fromEntries(rows.map((row) => [row.role, Number(row.calls)])), evicted: Number(info?.dealloc ?? 0) };
}
