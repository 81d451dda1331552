import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { countStatements } from "../db/statement-counts";
import { sqliteWriteLock } from "../db/write-lock";
import { intakeBatch, SQLITE, type Batch, type IntakeDatabase, type Row } from "./intake-batch";
import { RawJson, type IntakeResult, type OrderWebhook } from "./order-intake";

// The SQLite intake's thread, started by sqliteIntakeStore: it plans each
// batch of order webhooks (parsing, reading the payload, attribution) and
// stores it, commit and fsync included, so the app's event loop only
// verifies and answers the requests.

export interface ThreadSettings {
  path: string;
  lockWaitMs: number;
  checkpointPages: number;
  /** The process's SQLite write lock (write-lock.ts), shared with the job worker's thread. */
  sqliteWriteLock: SharedArrayBuffer;
}

/** A webhook as it crosses to the thread: a raw body goes as its bytes (a class does not survive the copy). */
export type WireWebhook = Omit<OrderWebhook, "payload"> & { payload: unknown };

export interface ThreadRequest {
  id: number;
  hooks: WireWebhook[];
}

export type ThreadAnswer = { id: number; results: IntakeResult[] } | { id: number; error: { message: string; code?: string } };

function fromWire(hook: WireWebhook): OrderWebhook {
  const { payload } = hook;
  if (!(payload instanceof Uint8Array)) return hook;
  return { ...hook, payload: new RawJson(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)) };
}

function openDatabase({ path, lockWaitMs, checkpointPages }: ThreadSettings): IntakeDatabase {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma(`busy_timeout = ${lockWaitMs}`);
  db.pragma(`wal_autocheckpoint = ${checkpointPages}`);
  // Shared with the job worker's thread (write-lock.ts); the intake's commits come first.
  const lock = sqliteWriteLock();
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const insertAll = db.transaction((batch: Batch) =>
    batch.groups.map((group) => {
      for (const [k, [sql, params]] of group.entries()) {
        countStatements("intake");
        if (prepared(batch.sqls[sql]!).run(...params).changes === 0 && k === 0) return false;
      }
      return true;
    }),
  );
  return {
    dialect: SQLITE,
    select: (sql, params) => {
      countStatements("intake");
      return prepared(sql).all(...params) as Row[];
    },
    // BEGIN IMMEDIATE: take the write lock first, waiting for it up to busy_timeout.
    insert: (batch) => {
      countStatements("intake", 2); // BEGIN IMMEDIATE and COMMIT
      lock.holdFirst(lockWaitMs);
      try {
        return insertAll.immediate(batch);
      } finally {
        lock.release();
      }
    },
  };
}

const port = parentPort!;
const database = openDatabase(workerData as ThreadSettings);
port.on("message", async ({ id, hooks }: ThreadRequest) => {
  let answer: ThreadAnswer;
  try {
    answer = { id, results: await intakeBatch(database, hooks.map(fromWire)) };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    answer = { id, error: { message: String(message), code } };
  }
  port.postMessage(answer);
});
