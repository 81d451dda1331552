import { Worker } from "node:worker_threads";
import type { PlainSql, SqlRow } from "../db/sql.server";
import { threadModule } from "../threads/thread-module";
import { intakeBatch, POSTGRES, type Batch, type IntakeDatabase, type Row, type Value } from "./intake-batch";
import { RawJson, type IntakeResult, type OrderWebhook } from "./order-intake";
// Types only: loading that module runs the thread's code.
import { sqliteWriteLock, sqliteWriteLockBuffer } from "../db/write-lock";
import type { ThreadAnswer, ThreadRequest, ThreadSettings, WireWebhook } from "./sqlite-intake-thread";

// Where batches of order webhooks are planned and stored: one transaction
// per batch, so the cost of a commit is shared by all the webhooks that
// arrived meanwhile.

export interface IntakeStore {
  /** Stores what a batch of webhooks asks for, in one transaction; the outcome of each. */
  intake(hooks: OrderWebhook[]): Promise<IntakeResult[]>;
  /** Resolves once the store can take a batch at full speed (its thread loaded, its statements prepared). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The thread copies the write-ahead log back into the database (a
 * checkpoint, which stalls that commit 10–15 ms) only once the log holds this
 * many pages, ten times SQLite's default: a burst of webhooks is not held up
 * by checkpoints, which the app's other connection (Prisma's, used by the
 * worker that sends the jobs) still runs at the default as it commits.
 */
const CHECKPOINT_PAGES = 10_000;

/**
 * The thread's V8 heap: what it parses dies young, so a small young
 * generation holds it (the default grows to tens of megabytes in a burst,
 * resident in a process that must stay under 250 MB).
 */
const INTAKE_HEAP_LIMITS = { maxYoungGenerationSizeMb: 8 };

class SqliteWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "SqliteWriteError";
  }
}

const toWire = (hook: OrderWebhook): WireWebhook => (hook.payload instanceof RawJson ? { ...hook, payload: hook.payload.bytes } : hook);

/**
 * SQLite: planning and writing, with the commit and its fsync, run in a
 * worker thread, so the event loop goes on reading the next requests
 * meanwhile. The thread may wait for the write lock (busy_timeout) without
 * stopping the event loop, where a Prisma transaction of this same process
 * may hold it.
 */
export function sqliteIntakeStore(path: string, options: { lockWaitMs?: number } = {}): IntakeStore {
  const settings: ThreadSettings = { path, lockWaitMs: options.lockWaitMs ?? 5_000, checkpointPages: CHECKPOINT_PAGES, sqliteWriteLock: sqliteWriteLockBuffer() };
  let thread: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (results: IntakeResult[]) => void; reject: (error: Error) => void }>();

  function writer(): Worker {
    if (thread) return thread;
    const { entry, execArgv } = threadModule("sqlite-intake-thread", "app/referrals/sqlite-intake-thread.ts");
    const started = new Worker(entry, { workerData: settings, execArgv, resourceLimits: INTAKE_HEAP_LIMITS });
    started.unref();
    started.on("message", (answer: ThreadAnswer) => {
      const caller = waiting.get(answer.id);
      waiting.delete(answer.id);
      // Idle, the thread does not keep the process alive; with a batch under way it does.
      if (waiting.size === 0) started.unref();
      if ("error" in answer) caller?.reject(new SqliteWriteError(answer.error.message, answer.error.code));
      else caller?.resolve(answer.results);
    });
    const lost = (error: Error) => {
      if (thread === started) thread = undefined;
      for (const caller of waiting.values()) caller.reject(error);
      waiting.clear();
    };
    started.on("error", lost);
    const startedId = started.threadId;
    started.on("exit", (code) => {
      sqliteWriteLock().releaseHeldBy(startedId);
      lost(new Error(`the SQLite intake thread stopped (${code})`));
    });
    return (thread = started);
  }

  function ask(hooks: WireWebhook[]): Promise<IntakeResult[]> {
    return new Promise<IntakeResult[]>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      const started = writer();
      started.ref();
      started.postMessage({ id, hooks } satisfies ThreadRequest);
    });
  }

  // Started now: loading its modules takes a moment, better spent before the first webhook.
  writer();

  return {
    intake: (hooks) => ask(hooks.map(toWire)),
    // An empty batch: the thread opens the database and prepares its reads.
    ready: async () => void (await ask([])),
    async close() {
      await thread?.terminate();
    },
  };
}

/** Bind parameters per statement: PostgreSQL takes at most 65,535. */
const MAX_PARAMS = 60_000;

type Query = (text: string, params: unknown[]) => Promise<{ rows: SqlRow[] }>;

/**
 * Inserts rows of a batch with one multi-row INSERT per table (and per
 * MAX_PARAMS); the ids (each row's first value) of the rows that were new.
 * A row that conflicts with an earlier one, stored or in the same statement,
 * is skipped as ON CONFLICT DO NOTHING skips it.
 */
async function insertMany(query: Query, batch: Batch, rows: [sqlIndex: number, params: Value[]][]): Promise<Set<unknown>> {
  const fresh = new Set<unknown>();
  for (const [index, { table, columns }] of batch.targets.entries()) {
    const ofTable = rows.filter(([sql]) => sql === index).map(([, params]) => params);
    const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
    for (let from = 0; from < ofTable.length; from += perStatement) {
      const chunk = ofTable.slice(from, from + perStatement);
      const tuples = chunk.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
      const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${tuples.join(", ")} ON CONFLICT DO NOTHING RETURNING "id"`;
      for (const row of (await query(sql, chunk.flat())).rows) fresh.add(row.id);
    }
  }
  return fresh;
}

/**
 * PostgreSQL on a pool of its own (not Prisma's, which the app's pages
 * share), so that a commit never queues behind other work of the process:
 * the reads, then the inserts in one transaction of two round trips whatever
 * the batch's size (a round trip per row made a batch of 200 webhooks cost 400).
 */
export function postgresIntakeStore(sql: PlainSql): IntakeStore {
  const database: IntakeDatabase = {
    dialect: POSTGRES,
    select: async (text, params) => (await sql.boundRows(text, params)) as Row[],
    insert: (batch) =>
      sql.transaction(async (query) => {
        // A group's first row decides whether the delivery is new; its other rows follow only then.
        const firstIsNew = await insertMany(query, batch, batch.groups.flatMap((group) => group.slice(0, 1)));
        const fresh = batch.groups.map((group) => group.length > 0 && firstIsNew.has(group[0]![1][0]));
        await insertMany(query, batch, batch.groups.flatMap((group, i) => (fresh[i] ? group.slice(1) : [])));
        return fresh;
      }),
  };
  return {
    intake: (hooks) => intakeBatch(database, hooks),
    ready: async () => void (await intakeBatch(database, [])),
    close: () => sql.close(),
  };
}
