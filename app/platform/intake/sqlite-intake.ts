import type { MessagePort } from "node:worker_threads";
import type Database from "better-sqlite3";
import { countStatements } from "../db/statement-counts";
import { sqliteWriteLock, WriteLockBusyError } from "../db/write-lock";
import { WebhooksAnswering } from "../threads/webhooks-answering";
import { batchIntake, SQLITE, type Batch, type BatchIntake, type IntakeDatabase, type Row } from "./intake-batch";
import { checkDelivery } from "./plan";
import { RawJson, type AnyIntakePlanner, type Delivery, type IntakeResult } from "./planner";
import { openSqlite } from "../db/sqlite-connection";

// The SQLite intake, served on a message port by serveIntake: in a thread of
// its own, or beside the job worker in its thread. A webhook as delivered
// (raw bytes, its signature checked) is read, and if it can be read, kept as
// it came, in PendingDelivery, and answered once that commit is done; one
// that cannot be read is answered malformed and kept nowhere, as PostgreSQL
// answers it. The intake plans what is kept (the planner's reading again,
// the shop's settings, the rows) and stores its rows once deliveries stop
// arriving for a moment, so a burst costs the event loop and the intake one
// small row per webhook (decision 022). Deliveries the app read itself
// (reconciliation, the backfill) are planned at once: their callers count
// the outcomes.

export interface ThreadSettings {
  /** The name of the planner the store was made with: the thread serves only that one. */
  planner: string;
  path: string;
  lockWaitMs: number;
  /** The process's SQLite write lock (write-lock.ts), shared with the job worker's thread. */
  sqliteWriteLock: SharedArrayBuffer;
  /**
   * Plans kept deliveries in the background, and those an earlier process
   * left as it starts: the store of the thread that answers webhooks. A
   * store for orders the app reads itself leaves that to it: before its own
   * batches it waits for what is kept to be planned, and plans it itself
   * only past `keptWaitMs` (no webhooks' store is running, say).
   */
  plansKept: boolean;
  keptWaitMs: number;
  /** How many order webhooks the main thread is answering (webhooks-answering.ts): no planning while it answers a burst. */
  webhooksAnswering: SharedArrayBuffer;
}

/** A webhook as it crosses to the thread: a raw body goes as its bytes (a class does not survive the copy). */
export type WireWebhook = Omit<Delivery, "payload"> & { payload: unknown };

/** A batch to store; or `finishBy`: plan kept deliveries until then (the process is stopping). */
export type ThreadRequest = { id: number; hooks: WireWebhook[] } | { id: number; finishBy: number };

export type ThreadAnswer = { id: number; results: IntakeResult[] } | { id: number; error: { message: string; code?: string } };

/** What became of deliveries answered "accepted" earlier, sent by the thread unasked. */
export interface PlannedDelivery {
  shop: string;
  topic: string;
  webhookId: string | null;
  result: IntakeResult;
}
export type ThreadReport = { planned: PlannedDelivery[] } | { planningFailed: { message: string } };

/** Kept deliveries are planned once none has arrived for this long: the burst is over. */
const QUIET_MS = 20;
/**
 * Under a stream that never pauses, planning takes a turn after each batch
 * once the oldest kept delivery has waited this long: a flash sale's first
 * seconds are answered at full speed, and no order waits for its record for
 * much longer than this (its event waits for the service longer than that).
 */
const MOST_WAIT_MS = 5_000;
/** Deliveries planned and stored per transaction. */
const PLAN_CHUNK = 200;
/** After planning failed (the database busy or full), the next try. */
const RETRY_MS = 5_000;
/** How often a store for orders the app reads looks whether what is kept has been planned. */
const KEPT_POLL_MS = 50;

function fromWire(hook: WireWebhook): Delivery {
  const { payload } = hook;
  if (!(payload instanceof Uint8Array)) return hook;
  return { ...hook, payload: new RawJson(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)) };
}

interface PendingRow {
  id: number;
  shop: string;
  topic: string;
  webhookId: string | null;
  triggeredAt: string | null;
  body: Buffer;
}

/**
 * The intake's connection. On a thread of its own, a write waits for the
 * lock by blocking the thread (the wait is handed over the moment the lock
 * is free). `shared`: the thread's event loop must go on meanwhile (a Prisma
 * transaction of that thread may hold SQLite's lock across its awaits), so a
 * write waits without blocking, and tries again while SQLite says busy.
 */
function openDatabase({ path, lockWaitMs }: ThreadSettings, shared: boolean) {
  const db = openSqlite(path, shared ? 0 : lockWaitMs);
  // Never a checkpoint as this connection commits (one stalled a commit 40–70 ms once a burst's kept bodies had
  // filled the log): the thread checkpoints once a burst is planned, and the worker's connection at SQLite's default.
  db.pragma("wal_autocheckpoint = 0");
  // Shared with the job worker's thread (write-lock.ts); the intake's commits come first.
  const lock = sqliteWriteLock();
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const run = (sql: string, ...params: unknown[]) => {
    countStatements("intake");
    return prepared(sql).run(...params);
  };
  const inTransaction = db.transaction((work: () => unknown) => work());
  /** `work` in one transaction, BEGIN IMMEDIATE: the write lock is taken first, waiting for it up to lockWaitMs. */
  async function writing<T>(work: () => T): Promise<T> {
    countStatements("intake", 2); // BEGIN IMMEDIATE and COMMIT
    if (!shared) {
      lock.holdFirst(lockWaitMs);
      try {
        return inTransaction.immediate(work) as T;
      } finally {
        lock.release();
      }
    }
    return lock.whenFree(() => inTransaction.immediate(work) as T, lockWaitMs, "first");
  }
  const insertRows = (batch: Batch) =>
    batch.groups.map((group) => {
      for (const [k, [sql, params]] of group.entries()) {
        if (run(batch.sqls[sql]!, ...params).changes === 0 && k === 0) return false;
      }
      return true;
    });
  const intake: IntakeDatabase = {
    dialect: SQLITE,
    select: (sql, params) => {
      countStatements("intake");
      return prepared(sql).all(...params) as Row[];
    },
    insert: (batch) => writing(() => insertRows(batch)),
  };
  /** Deletes the kept rows `ids`, by their ids; none if another thread or process planned (or set aside) one of them meanwhile. */
  const forgetAll = (ids: number[]) => {
    const forgotten = run(`DELETE FROM "PendingDelivery" WHERE "id" IN (SELECT "value" FROM json_each(?)) AND "failure" IS NULL`, JSON.stringify(ids)).changes;
    if (forgotten !== ids.length) throw new PlannedElsewhere();
  };
  return {
    intake,
    /** The same, but the planned deliveries (`ids`) leave PendingDelivery in the transaction that stores their rows. */
    plannedIntake: (ids: number[]): IntakeDatabase & { forgotten: boolean } => {
      const planned = {
        ...intake,
        forgotten: false,
        insert: (batch: Batch) => {
          planned.forgotten = true;
          return writing(() => {
            forgetAll(ids);
            return insertRows(batch);
          });
        },
      };
      return planned;
    },
    forget: (ids: number[]) => writing(() => forgetAll(ids)),
    /** Copies what the log holds back into the database, as far as no reader needs it (never waiting for one). */
    checkpoint: () => db.pragma("wal_checkpoint(PASSIVE)"),
    close: () => db.close(),
    /** Keeps deliveries as they came, in one transaction; the id of the last. */
    keep: (hooks: Delivery[], now: Date) =>
      writing(() => {
        let last = 0;
        const receivedAt = SQLITE.time(now);
        for (const hook of hooks) {
          const triggeredAt = hook.triggeredAt ? SQLITE.time(hook.triggeredAt) : null;
          const body = (hook.payload as RawJson).bytes;
          last = Number(run(KEEP, hook.shop, hook.topic, hook.webhookId, triggeredAt, body, receivedAt).lastInsertRowid);
        }
        return last;
      }),
    /** The newest kept delivery's id (set aside or not: keptUpTo tells); 0 when none is kept. */
    newestKept: (): number => {
      countStatements("intake");
      return (prepared(`SELECT max("id") AS "id" FROM "PendingDelivery"`).get() as { id: number | null }).id ?? 0;
    },
    /** Whether a delivery kept up to `id` waits still. */
    keptUpTo: (id: number): boolean => {
      countStatements("intake");
      return prepared(`SELECT 1 FROM "PendingDelivery" WHERE "id" <= ? AND "failure" IS NULL LIMIT 1`).get(id) !== undefined;
    },
    /** The oldest kept deliveries (but those set aside). */
    oldest: (limit: number): PendingRow[] => {
      countStatements("intake");
      return prepared(`SELECT "id", "shop", "topic", "webhookId", "triggeredAt", "body" FROM "PendingDelivery" WHERE "failure" IS NULL ORDER BY "id" LIMIT ?`).all(
        limit,
      ) as PendingRow[];
    },
    /** Sets a delivery aside, with why it could not be planned; none if another thread or process planned it meanwhile. */
    setAside: (id: number, failure: string) =>
      writing(() => {
        if (run(`UPDATE "PendingDelivery" SET "failure" = ? WHERE "id" = ? AND "failure" IS NULL`, failure, id).changes !== 1) throw new PlannedElsewhere();
      }),
    /** Deliveries set aside go back to be planned: a process started since (a fix deployed, say) tries them again. */
    retrySetAside: () => writing(() => run(`UPDATE "PendingDelivery" SET "failure" = NULL WHERE "failure" IS NOT NULL`).changes),
  };
}

/** The chunk was planned by another thread or process between its reading and its transaction: nothing of it is stored twice. */
class PlannedElsewhere extends Error {}

const KEEP = `INSERT INTO "PendingDelivery" ("shop", "topic", "webhookId", "triggeredAt", "body", "receivedAt") VALUES (?, ?, ?, ?, ?, ?)`;

/** The intake's connection, and the planner's batches on it. */
type ThreadDatabase = ReturnType<typeof openDatabase> & { intakeBatch: BatchIntake };


/** When each batch of kept deliveries was kept (its last id): how long the oldest has waited. */
class Backlog {
  private batches: { upToId: number; at: number }[] = [];
  /** Kept since planning last fell behind its bound: what planning owes before the next batch. */
  owed = 0;
  add(upToId: number, count: number) {
    this.batches.push({ upToId, at: Date.now() });
    if (this.oldestWaitMs() >= MOST_WAIT_MS) this.owed += count;
  }
  planned(upToId: number) {
    while (this.batches.length > 0 && this.batches[0]!.upToId <= upToId) this.batches.shift();
  }
  clear() {
    this.batches = [];
    this.owed = 0;
  }
  oldestWaitMs(): number {
    return this.batches.length > 0 ? Date.now() - this.batches[0]!.at : 0;
  }
}

const toHook = (row: PendingRow): Delivery => ({
  shop: row.shop,
  topic: row.topic,
  webhookId: row.webhookId,
  triggeredAt: row.triggeredAt === null ? null : new Date(row.triggeredAt),
  payload: new RawJson(row.body),
});

const messageOf = (error: unknown) => String((error as Error)?.message ?? error);

/** SQLite's codes for a database that cannot take writes now (busy, full, failing): not the fault of the rows written. */
const PASSING_FAILURES = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|NOMEM|READONLY|PROTOCOL|INTERRUPT|CORRUPT|NOTADB)/;

/**
 * A failure of the database, not of the deliveries planned (better-sqlite3's
 * errors carry SQLite's code): planning waits and tries again. Any other
 * failure (a constraint, a value it cannot bind, the planning code's own)
 * may be one delivery's.
 */
const isDatabaseFailure = (error: unknown) => error instanceof WriteLockBusyError || PASSING_FAILURES.test(String((error as { code?: unknown })?.code ?? ""));

/**
 * Plans and stores kept deliveries, one transaction; what became of each.
 * Read before the transaction that stores them: should another thread or
 * process plan one of them first, this one's DELETE removes fewer rows than
 * it read, and its transaction rolls back (PlannedElsewhere).
 */
async function planRows(database: ThreadDatabase, rows: PendingRow[], apart: Apart): Promise<void> {
  const ids = rows.map((row) => row.id);
  const hooks = rows.map(toHook);
  const planned = database.plannedIntake(ids);
  const results = await database.intakeBatch(planned, hooks);
  // Rows stored: the planning and the database work for these deliveries.
  if (planned.forgotten) apart.stored = true;
  // Nothing to store (every one malformed, say): they leave all the same.
  else await database.forget(ids);
  rows.forEach((row, i) => apart.planned.push({ id: row.id, delivery: { shop: row.shop, topic: row.topic, webhookId: row.webhookId, result: results[i]! } }));
}

/** What became of a chunk's deliveries so far, by kept id (reported in that order). */
interface Apart {
  planned: { id: number; delivery: PlannedDelivery }[];
  failed: { row: PendingRow; error: unknown }[];
  /** Whether rows of some delivery of the chunk were stored: the planning works, for some deliveries at least. */
  stored: boolean;
}

/**
 * Plans each half of `rows` apart, and so on down to single deliveries: one
 * bad delivery in a chunk of 200 costs about 16 transactions, not 200. A
 * failure of the database is thrown; rows planned elsewhere meanwhile are
 * left out.
 */
async function planHalves(database: ThreadDatabase, rows: PendingRow[], apart: Apart): Promise<void> {
  const half = Math.ceil(rows.length / 2);
  for (const part of [rows.slice(0, half), rows.slice(half)]) {
    // Batches waiting to be kept go first (planning itself runs one chunk at a time: planAndReport).
    await new Promise((resolve) => setImmediate(resolve));
    try {
      await planRows(database, part, apart);
    } catch (error) {
      if (isDatabaseFailure(error)) throw error;
      if (part.length > 1) await planHalves(database, part, apart);
      else if (!(error instanceof PlannedElsewhere)) apart.failed.push({ row: part[0]!, error });
    }
  }
}

/**
 * A chunk whose planning failed, not on the database: its deliveries are
 * planned apart, and one that fails alone is set aside, so the ones after it
 * are not held up. Unless no delivery of the chunk could be stored: then the
 * failure may be everyone's (a bug every order meets, a schema a newer
 * process has changed), and it is thrown; planning waits and tries again (a
 * delivery that fails alone is set aside once one that does not shares its
 * chunk).
 */
async function planApart(database: ThreadDatabase, rows: PendingRow[], apart: Apart): Promise<void> {
  await planHalves(database, rows, apart);
  if (!apart.stored && apart.failed.length > 0) throw apart.failed[0]!.error;
  for (const { row, error } of apart.failed) {
    try {
      await database.setAside(row.id, String((error as Error)?.stack ?? error).slice(0, 2_000));
    } catch (setAsideError) {
      if (setAsideError instanceof PlannedElsewhere) continue;
      throw setAsideError;
    }
    apart.planned.push({ id: row.id, delivery: { shop: row.shop, topic: row.topic, webhookId: row.webhookId, result: { outcome: "set_aside", detail: messageOf(error) } } });
  }
}

/**
 * The last chunk whose deliveries were planned apart and none could be
 * stored: its ids, the failure its whole try met, and its whole tries since.
 * Its retries try it whole, one transaction, not every half down to single
 * deliveries again (2n − 1 tries every RETRY_MS, for a failure every
 * delivery meets); unless its deliveries change, its whole try fails
 * otherwise (the shared cause gone, one bad delivery left: its halves set it
 * aside), or REHALVE_EVERY retries have passed.
 */
interface NoneStored {
  ids: string;
  failure: string;
  wholeTries: number;
}
/** About a minute of retries. */
const REHALVE_EVERY = 12;

/** In the order they were kept. */
const deliveries = (apart: Apart) => apart.planned.sort((a, b) => a.id - b.id).map((p) => p.delivery);

/**
 * Plans and stores the oldest kept deliveries; what became of each, and
 * whether more may wait. A failure thrown part way carries what was planned
 * before it (PartlyPlanned).
 */
async function planOldest(database: ThreadDatabase, kept: Backlog, memory: { noneStored?: NoneStored }): Promise<{ planned: PlannedDelivery[]; more: boolean }> {
  const rows = database.oldest(PLAN_CHUNK);
  if (rows.length === 0) {
    memory.noneStored = undefined;
    kept.clear();
    return { planned: [], more: false };
  }
  const apart: Apart = { planned: [], failed: [], stored: false };
  try {
    await planRows(database, rows, apart);
  } catch (error) {
    // Planned elsewhere (all or some): read again.
    if (error instanceof PlannedElsewhere) return { planned: [], more: true };
    if (isDatabaseFailure(error)) throw error;
    const ids = rows.map((row) => row.id).join(",");
    // Planned apart before, none of it stored, and failing the same way: one try is enough.
    if (memory.noneStored?.ids === ids && memory.noneStored.failure === messageOf(error) && ++memory.noneStored.wholeTries < REHALVE_EVERY) throw error;
    memory.noneStored = undefined;
    try {
      await planApart(database, rows, apart);
    } catch (failure) {
      if (!apart.stored && !isDatabaseFailure(failure)) memory.noneStored = { ids, failure: messageOf(error), wholeTries: 0 };
      throw new PartlyPlanned(failure, deliveries(apart));
    }
  }
  memory.noneStored = undefined;
  const upToId = rows.at(-1)!.id;
  kept.planned(upToId);
  kept.owed = Math.max(0, kept.owed - rows.length);
  return { planned: deliveries(apart), more: rows.length === PLAN_CHUNK };
}

/** Planning failed part way through a chunk: what was planned and stored before, still to be reported. */
class PartlyPlanned extends Error {
  constructor(
    readonly failure: unknown,
    readonly planned: PlannedDelivery[],
  ) {
    super(messageOf(failure));
  }
}

/** Where an intake is asked, and answers: a thread's parentPort, or one end of a MessageChannel. */
export type IntakePort = Pick<MessagePort, "on" | "postMessage" | "unref">;

/**
 * Serves an intake on `port`, planning with `planner`, until the port
 * closes; resolves once it has let its connection go. `shared`: the thread
 * runs other work too (the job worker's), so the intake never blocks it to
 * wait for SQLite's write lock (openDatabase).
 */
export function serveIntake(port: IntakePort, settings: ThreadSettings, planner: AnyIntakePlanner, { shared = false } = {}): Promise<void> {
  if (planner.name !== settings.planner) throw new Error(`This intake plans with ${planner.name}, not ${settings.planner}`);
  const database: ThreadDatabase = { ...openDatabase(settings, shared), intakeBatch: batchIntake(planner) };
  const kept = new Backlog();
  const answering = new WebhooksAnswering(settings.webhooksAnswering);
  let planTimer: ReturnType<typeof setTimeout> | undefined;
  /** The chunk being planned, if any. */
  let planning: Promise<boolean> | undefined;
  /** After a failure, planning waits until then (a batch does not bring it forward). */
  let retryAt = 0;
  /** The last chunk none of which could be stored (NoneStored). */
  const memory: { noneStored?: NoneStored } = {};
  let closed = false;

  /** Plans one chunk of kept deliveries and reports what became of them; true when more may wait. */
  async function planAndReport(): Promise<boolean> {
    // One chunk at a time: a batch that comes while a chunk is planned in halves waits for that chunk, not beside it.
    return (planning ??= planOldest(database, kept, memory)
      .then(({ planned, more }) => {
        if (planned.length > 0) port.postMessage({ planned } satisfies ThreadReport);
        return more;
      })
      .catch((error: unknown) => {
        if (!(error instanceof PartlyPlanned)) throw error;
        if (error.planned.length > 0) port.postMessage({ planned: error.planned } satisfies ThreadReport);
        throw error.failure;
      })
      .finally(() => (planning = undefined)));
  }

  /** Plans every kept delivery (or until `until`). */
  async function planEverything(until = Infinity): Promise<void> {
    while ((await planAndReport()) && Date.now() < until);
  }

  /**
   * Waits for the deliveries kept now to be planned by the thread that keeps
   * them (it holds planning through a burst, MOST_WAIT_MS at most): two threads
   * planning the same rows would each do the work, and one roll it back.
   */
  async function keptPlanned(): Promise<void> {
    const newest = database.newestKept();
    const until = Date.now() + settings.keptWaitMs;
    while (newest > 0 && database.keptUpTo(newest)) {
      // Past the wait: planned here. What cannot be planned yet is reported, and the batch goes on (its orders are read, not kept).
      if (Date.now() >= until) return void (await planEverything().catch(planningFailed));
      await new Promise((resolve) => setTimeout(resolve, KEPT_POLL_MS));
    }
  }

  /** What an earlier process kept and did not plan, and what was set aside (planned again at each start). */
  async function planLeftovers(): Promise<void> {
    await database.retrySetAside();
    await planEverything();
  }

  /** A failure to plan is reported, and planning tried again a little later. */
  function planningFailed(error: unknown): false {
    port.postMessage({ planningFailed: { message: messageOf(error) } } satisfies ThreadReport);
    retryAt = Date.now() + RETRY_MS;
    planSoon();
    return false;
  }

  /** The same in the background. */
  async function planInBackground(): Promise<boolean> {
    if (Date.now() < retryAt) return false;
    return planAndReport().catch(planningFailed);
  }

  /** Plans kept deliveries once `afterMs` pass without a batch (each batch sets the wait again), chunk after chunk. */
  function planSoon(afterMs = QUIET_MS) {
    if (!settings.plansKept || closed) return;
    clearTimeout(planTimer);
    planTimer = setTimeout(
      async () => {
        if (closed) return;
        // A pause within a burst (a collection, the first round trips) is not its end: planning would take the thread from the next batches.
        if (answering.inBurst() && kept.oldestWaitMs() < MOST_WAIT_MS) return planSoon();
        // Waiting after a failure: libuv's timers count whole milliseconds of another clock than Date.now()'s, so one may
        // fire a millisecond before retryAt; it waits the rest instead of leaving the retry to the next batch.
        if (Date.now() < retryAt) return planSoon();
        const more = await planInBackground();
        if (closed) return;
        if (more) planSoon(0);
        // Planned: the burst is over, and its log can go back into the database (or at the next burst's end).
        else
          try {
            database.checkpoint();
          } catch {
            /* the next one copies it */
          }
      },
      Math.max(afterMs, retryAt - Date.now()),
    );
  }

  // The asking end let go (the store closed): no more planning, and the connection closes once a chunk under way is done.
  let letGo!: () => void;
  const ended = new Promise<void>((resolve) => (letGo = resolve));
  port.on("close", () => {
    closed = true;
    clearTimeout(planTimer);
    void (planning ?? Promise.resolve(false))
      .catch(() => false)
      .finally(() => {
        database.close();
        letGo();
      });
  });
  port.on("message", async (request: ThreadRequest) => {
    const { id } = request;
    let answer: ThreadAnswer;
    try {
      if ("finishBy" in request) {
        clearTimeout(planTimer);
        await planEverything(request.finishBy);
        answer = { id, results: [] };
      } else {
        // Warming up, the thread first plans what an earlier process kept and did not plan, and what it set aside;
        // what it cannot plan yet does not keep the app from starting.
        if (request.hooks.length === 0 && settings.plansKept) await planLeftovers().catch(planningFailed);
        answer = { id, results: await storeBatch(request.hooks) };
      }
    } catch (error) {
      const { message, code } = error as { message?: string; code?: string };
      answer = { id, error: { message: String(message), code } };
    }
    port.postMessage(answer);
    if ("finishBy" in request || !settings.plansKept) return;
    // A stream that never pauses: once the oldest has waited its bound, planning keeps pace with what comes.
    while (kept.owed > 0 && (await planInBackground()));
    planSoon();
  });
  // Sharing a thread, the intake does not keep it alive (the asking end does, while a request is under way; a port's message listener refs it).
  if (shared) port.unref();
  return ended;

  /**
   * Stores a batch: deliveries as they came are read, and kept (answered
   * "accepted") when they can be, answered malformed when not; anything else
   * is planned and stored at once (an empty batch warms the store up).
   * Results in the batch's order.
   */
  async function storeBatch(wire: WireWebhook[]): Promise<IntakeResult[]> {
    const hooks = wire.map(fromWire);
    const results: (IntakeResult | undefined)[] = hooks.map((hook) => {
      if (!(hook.payload instanceof RawJson)) return undefined;
      // Only the bytes are kept: what the reading makes of them is read again when they are planned.
      const checked = checkDelivery(planner, hook);
      return "malformed" in checked ? { outcome: "malformed", detail: checked.malformed } : { outcome: "accepted" };
    });
    const delivered = hooks.filter((_, i) => results[i]?.outcome === "accepted");
    const others = hooks.filter((_, i) => results[i] === undefined);
    if (delivered.length > 0) kept.add(await database.keep(delivered, new Date()), delivered.length);
    // An order read from the Admin API whose webhook is kept: the webhook's plan comes first, so the order counts as delivered.
    if (others.length > 0) await (settings.plansKept ? planEverything() : keptPlanned());
    const planned = others.length > 0 || hooks.length === 0 ? await database.intakeBatch(database.intake, others) : [];
    let other = 0;
    return results.map((result) => result ?? planned[other++]!);
  }
}
