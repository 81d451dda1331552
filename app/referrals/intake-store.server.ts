import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import type { NewJob } from "../jobs/enqueue.server";
import type { IntakeWrite, OrderRecordRow, ShopState } from "./order-intake";
import { PIPELINE_DEFAULTS, readPipelineSettings, type PipelineSettings } from "./pipeline-settings";

// Where a batch of order webhooks is stored: the shops' state is read once
// per batch and every row of the batch is written in one transaction, so the
// cost of a commit is shared by all the webhooks that arrived meanwhile.
// Plain SQL, because Prisma's per-row cost (~200 µs measured) is the whole
// acknowledgement budget; the tables are Prisma's, written the way Prisma
// writes them.

export interface IntakeStore {
  shopStates(shops: string[]): Promise<Map<string, ShopState>>;
  /** One transaction. For each write, whether it was new (false: its order record, or its job, was stored before). */
  store(writes: IntakeWrite[]): Promise<boolean[]>;
  close(): Promise<void>;
}

/** The id under which Shopify's session storage keeps a shop's offline session (what authenticate.webhook loads). */
const offlineSessionId = (shop: string) => `offline_${shop}`;

const SETTING_COLUMNS = Object.keys(PIPELINE_DEFAULTS) as (keyof PipelineSettings)[];

type Row = Record<string, string | number | Date | null>;
type Value = string | number | Date | null;
type Params = Value[];
/** A write's rows, in the order they are inserted: the statement of each (an index into Batch.sqls) and its values. */
type Group = [sqlIndex: number, params: Params][];

/**
 * A batch as the database takes it. When the first row of a write already
 * exists (its order record, or the job of a cancellation or refund), the
 * delivery is a duplicate and the rest of its rows are not inserted.
 */
interface Batch {
  sqls: string[];
  groups: Group[];
}

const processTag = randomBytes(5).toString("hex");
let sequence = 0;

/**
 * A unique row id that sorts by creation time, as Prisma's cuid does: new
 * rows land at the end of the id index instead of all over it, which makes a
 * batch's commit touch a few pages rather than hundreds (3× faster,
 * measured). Unique across processes by a random tag drawn once per process.
 */
export function orderedId(now = Date.now()): string {
  sequence += 1;
  return `${idPrefix(now)}${sequence.toString(36).padStart(6, "0")}`;
}

/**
 * `format`, remembering its last answer: the rows of a batch share a few
 * instants, so most calls repeat the one before.
 */
function lastOfInstant(format: (ms: number) => string): (ms: number) => string {
  let last = { ms: NaN, text: "" };
  return (ms) => {
    if (ms !== last.ms) last = { ms, text: format(ms) };
    return last.text;
  };
}

const idPrefix = lastOfInstant((ms) => `c${ms.toString(36).padStart(9, "0")}${processTag}`);

function insertSql(table: string, columns: string[], placeholder: (index: number) => string): string {
  return `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((_, i) => placeholder(i)).join(", ")}) ON CONFLICT DO NOTHING`;
}

/**
 * The INSERTs of a batch. The planner builds every row of a table the same
 * way, so the columns are read off the first row of each table and each row
 * is a list of values in that order: no per-row SQL or objects, which
 * matters at thousands of webhooks a second.
 */
function batchOf(writes: IntakeWrite[], placeholder: (index: number) => string, time: (date: Date) => Value): Batch {
  const nowMs = Date.now();
  const now = time(new Date(nowMs));
  const recordFields = Object.keys(writes.find((w) => w.record)?.record ?? {}) as (keyof OrderRecordRow)[];
  const jobFields = Object.keys(writes.find((w) => w.job)?.job ?? {}) as (keyof NewJob)[];
  const sqls = [
    insertSql("OrderRecord", ["id", ...recordFields, "createdAt", "updatedAt"], placeholder),
    insertSql("Job", ["id", ...jobFields, "status", "createdAt", "updatedAt"], placeholder),
  ];
  const values = <R extends object>(row: R, fields: (keyof R)[], extra: Value[]): Params => {
    const params: Params = [orderedId(nowMs)];
    for (const field of fields) {
      const value = row[field] as Value;
      params.push(value instanceof Date ? time(value) : value);
    }
    for (const value of extra) params.push(value);
    return params;
  };
  const groups = writes.map(({ record, job }) => {
    const group: Group = [];
    if (record) group.push([0, values(record, recordFields, [now, now])]);
    if (job) group.push([1, values(job, jobFields, ["queued", now, now])]);
    return group;
  });
  return { sqls, groups };
}

function shopStatesFrom(shops: string[], settingsRows: Row[], sessionIds: Set<string>): Map<string, ShopState> {
  const settingsByShop = new Map(settingsRows.map((row) => [String(row.shop), row]));
  return new Map(
    shops.map((shop) => {
      const row = settingsByShop.get(shop);
      const stored = Object.fromEntries(SETTING_COLUMNS.map((c) => [c, row?.[c] ?? PIPELINE_DEFAULTS[c]])) as Record<keyof PipelineSettings, string>;
      return [shop, { hasSession: sessionIds.has(offlineSessionId(shop)), settings: readPipelineSettings(stored) }];
    }),
  );
}

const settingsSelect = (placeholders: string[]) =>
  `SELECT "shop", ${SETTING_COLUMNS.map((c) => `"${c}"`).join(", ")} FROM "Shop" WHERE "shop" IN (${placeholders.join(", ")})`;
const sessionsSelect = (placeholders: string[]) => `SELECT "id" FROM "Session" WHERE "id" IN (${placeholders.join(", ")})`;

const sqliteTimeAt = lastOfInstant((ms) => `${new Date(ms).toISOString().slice(0, -1)}+00:00`);
/** How Prisma's SQLite adapter stores a DateTime (so that its comparisons keep working). */
const sqliteTime = (date: Date): string => sqliteTimeAt(date.getTime());

// The writer thread, sent as source text so that it needs no file of its own
// in the server build. It only runs statements: the app decides what they are.
const WRITER_THREAD = `
(async () => {
  const { parentPort, workerData } = await import("node:worker_threads");
  const { createRequire } = await import("node:module");
  const Database = createRequire(workerData.base)("better-sqlite3");
  const db = new Database(workerData.path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("busy_timeout = " + workerData.lockWaitMs);
  db.pragma("wal_autocheckpoint = " + workerData.checkpointPages);
  const statements = new Map();
  const prepared = (sql) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const write = db.transaction((sqls, groups) =>
    groups.map((group) => {
      for (const [k, [sql, params]] of group.entries()) {
        if (prepared(sqls[sql]).run(...params).changes === 0 && k === 0) return false;
      }
      return true;
    }),
  );
  parentPort.on("message", ({ id, sqls, groups }) => {
    try {
      parentPort.postMessage({ id, fresh: write.immediate(sqls, groups) });
    } catch (error) {
      parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
    }
  });
})();
`;

/**
 * The writer copies the write-ahead log back into the database (a
 * checkpoint, which stalls that commit 10–15 ms) only once the log holds this
 * many pages, ten times SQLite's default: a burst of webhooks is not held up
 * by checkpoints, which the app's other connection (Prisma's, used by the
 * worker that sends the jobs) still runs at the default as it commits.
 */
const WRITER_CHECKPOINT_PAGES = 10_000;

class SqliteWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "SqliteWriteError";
  }
}

/**
 * SQLite: the shops' state is read on the event loop (a read never waits in
 * WAL mode), and the writes, with their commit and its fsync, run in a worker
 * thread, so the event loop goes on parsing the next webhooks meanwhile. The
 * thread may wait for the write lock (busy_timeout) without stopping the
 * event loop, where a Prisma transaction of this same process may hold it.
 */
export function sqliteIntakeStore(path: string, options: { lockWaitMs?: number } = {}): IntakeStore {
  const lockWaitMs = options.lockWaitMs ?? 5_000;
  const reader = new Database(path, { readonly: true });
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = reader.prepare(sql)));
    return statement;
  };

  let thread: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (fresh: boolean[]) => void; reject: (error: Error) => void }>();
  function writer(): Worker {
    if (thread) return thread;
    const started = new Worker(WRITER_THREAD, { eval: true, workerData: { path, lockWaitMs, checkpointPages: WRITER_CHECKPOINT_PAGES, base: import.meta.url } });
    started.unref();
    started.on("message", (message: { id: number; fresh?: boolean[]; error?: { message: string; code?: string } }) => {
      const caller = waiting.get(message.id);
      waiting.delete(message.id);
      // Idle, the thread does not keep the process alive; with a commit under way it does.
      if (waiting.size === 0) started.unref();
      if (message.error) caller?.reject(new SqliteWriteError(message.error.message, message.error.code));
      else caller?.resolve(message.fresh!);
    });
    const lost = (error: Error) => {
      if (thread === started) thread = undefined;
      for (const caller of waiting.values()) caller.reject(error);
      waiting.clear();
    };
    started.on("error", lost);
    started.on("exit", (code) => lost(new Error(`the SQLite writer thread stopped (${code})`)));
    return (thread = started);
  }

  return {
    async shopStates(shops) {
      const marks = shops.map(() => "?");
      const settings = prepared(settingsSelect(marks)).all(...shops) as Row[];
      const sessions = prepared(sessionsSelect(marks)).all(...shops.map(offlineSessionId)) as { id: string }[];
      return shopStatesFrom(shops, settings, new Set(sessions.map((s) => s.id)));
    },
    store(writes) {
      const { sqls, groups } = batchOf(writes, () => "?", sqliteTime);
      return new Promise<boolean[]>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        const thread = writer();
        thread.ref();
        thread.postMessage({ id, sqls, groups });
      });
    },
    async close() {
      reader.close();
      await thread?.terminate();
    },
  };
}

/** PostgreSQL through the app's Prisma client (raw SQL in one transaction). */
export function postgresIntakeStore(prisma: PrismaClient): IntakeStore {
  const dollar = (i: number) => `$${i + 1}`;
  return {
    async shopStates(shops) {
      const marks = shops.map((_, i) => dollar(i));
      const settings = await prisma.$queryRawUnsafe<Row[]>(settingsSelect(marks), ...shops);
      const sessions = await prisma.$queryRawUnsafe<{ id: string }[]>(sessionsSelect(marks), ...shops.map(offlineSessionId));
      return shopStatesFrom(shops, settings, new Set(sessions.map((s) => s.id)));
    },
    store(writes) {
      const { sqls, groups } = batchOf(writes, dollar, (date) => date);
      return prisma.$transaction(async (tx) => {
        const fresh: boolean[] = [];
        for (const group of groups) {
          let inserted = true;
          for (const [k, [sql, params]] of group.entries()) {
            if ((await tx.$executeRawUnsafe(sqls[sql]!, ...params)) === 0 && k === 0) {
              inserted = false;
              break;
            }
          }
          fresh.push(inserted);
        }
        return fresh;
      });
    },
    async close() {},
  };
}
