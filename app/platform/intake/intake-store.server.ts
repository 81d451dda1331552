import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import { modelFields, type PlainSql } from "../db/sql.server";
import type { ThreadModule } from "../threads/thread-module";
import { webhooksAnsweringBuffer } from "../threads/webhooks-answering";
import { batchIntake, POSTGRES, type Batch, type IntakeDatabase, type Row, type Value } from "./intake-batch";
import { RawJson, type AnyIntakePlanner, type Delivery, type IntakeResult } from "./planner";
import { sqliteWriteLock, sqliteWriteLockBuffer } from "../db/write-lock";
import { serveIntake, type PlannedDelivery, type ThreadAnswer, type ThreadReport, type ThreadRequest, type ThreadSettings, type WireWebhook } from "./sqlite-intake";

export type { PlannedDelivery, ThreadSettings } from "./sqlite-intake";

// Where batches of deliveries are planned and stored: one transaction per
// batch, so the cost of a commit is shared by all the deliveries that
// arrived meanwhile.

export interface IntakeStore {
  /** Stores what a batch of deliveries asks for, in one transaction; the outcome of each ("accepted" for a delivery kept to be planned later: see onPlanned). */
  intake(deliveries: Delivery[]): Promise<IntakeResult[]>;
  /** Resolves once the store can take a batch (its thread loaded, its reads prepared; PostgreSQL parses its INSERT on each connection's first batch). */
  ready(): Promise<void>;
  /** Deliveries answered "accepted" have been planned and stored: what became of each. */
  onPlanned(listener: (planned: PlannedDelivery[]) => void): void;
  /** Plans what is kept (for `deadlineMs` at most; the next process plans the rest), then lets the store go. */
  close(deadlineMs?: number): Promise<void>;
}

/**
 * The thread's V8 heap: what it parses dies young, so a small young
 * generation holds it (the default grows to tens of megabytes in a burst,
 * resident in a process that must stay under 250 MB).
 */
const INTAKE_HEAP_LIMITS = { maxYoungGenerationSizeMb: 8 };
/** How long past its deadline a closing store waits for the intake's answer before it lets the intake go. */
const CLOSE_MARGIN_MS = 2_000;

/** The intake's thread ended (a crash) with batches waiting: they fail, and their webhooks are delivered again. */
class IntakeLost extends Error {
  override name = "IntakeLost";
}

class SqliteWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "SqliteWriteError";
  }
}

const toWire = (hook: Delivery): WireWebhook => (hook.payload instanceof RawJson ? { ...hook, payload: hook.payload.bytes } : hook);

/**
 * Where a SQLite intake runs: a port to an intake served in another thread
 * (serveIntake there, with the planner that thread imports, which must be
 * `planner`: serveIntake checks its name), or undefined when there is none
 * to serve it (then it gets a thread of its own).
 */
export type IntakeHost = (settings: ThreadSettings, planner: AnyIntakePlanner) => MessagePort | undefined;

/** An intake served in the calling thread itself (a store for orders a job reads, in the job worker's thread). */
export const inThisThread: IntakeHost = (settings, planner) => {
  const { port1, port2 } = new MessageChannel();
  serveIntake(port2, settings, planner, { shared: true });
  return port1;
};

/** What the store asks through: the intake's thread, or a port to an intake served elsewhere. */
interface Channel {
  postMessage(request: ThreadRequest): void;
  on(event: "message", listener: (answer: ThreadAnswer | ThreadReport) => void): void;
  ref(): void;
  unref(): void;
  /** Lets the intake go (a thread of its own ends). */
  end(): Promise<void>;
}

export interface SqliteIntakeOptions {
  /** What plans the deliveries; the thread that serves the intake must be handed the same one. */
  planner: AnyIntakePlanner;
  /** The module of the intake's thread of its own: it serves the intake (serveIntake) with the same planner. */
  thread: ThreadModule;
  /** Where the intake is served; a thread of its own without one. */
  host?: IntakeHost;
  lockWaitMs?: number;
  plansKept?: boolean;
  keptWaitMs?: number;
  planningFailed?: (message: string) => void;
}

/**
 * SQLite: planning and writing, with the commit and its fsync, run off the
 * event loop that answers webhooks: served where `host` says (the job
 * worker's thread, say), else in a thread of the intake's own. The intake
 * waits for the write lock without stopping this event loop, where a Prisma
 * transaction of this same thread may hold it.
 */
export function sqliteIntakeStore(path: string, options: SqliteIntakeOptions): IntakeStore {
  const planningFailed = options.planningFailed ?? (() => {});
  const settings: ThreadSettings = {
    planner: options.planner.name,
    path,
    lockWaitMs: options.lockWaitMs ?? 5_000,
    sqliteWriteLock: sqliteWriteLockBuffer(),
    plansKept: options.plansKept ?? true,
    // Past the webhooks' store's longest hold (a burst, 5 s) and its planning.
    keptWaitMs: options.keptWaitMs ?? 15_000,
    webhooksAnswering: webhooksAnsweringBuffer(),
  };
  let thread: Channel | undefined;
  /** An intake served elsewhere was lost (its thread crashed): from then on, a thread of the intake's own. */
  let hostLost = false;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (results: IntakeResult[]) => void; reject: (error: Error) => void }>();
  const plannedListeners: ((planned: PlannedDelivery[]) => void)[] = [];

  function writer(): Channel {
    if (thread) return thread;
    const hosted = hostLost ? undefined : options.host?.(settings, options.planner);
    const lost = (error: Error) => {
      if (hosted) hostLost = true;
      if (thread === started) thread = undefined;
      for (const caller of waiting.values()) caller.reject(error);
      waiting.clear();
    };
    const started = hosted ? hostedChannel(hosted, lost) : ownThread(options.thread, settings, lost);
    started.on("message", (answer: ThreadAnswer | ThreadReport) => {
      if ("planned" in answer) return plannedListeners.forEach((listener) => listener(answer.planned));
      if ("planningFailed" in answer) return planningFailed(answer.planningFailed.message);
      const caller = waiting.get(answer.id);
      waiting.delete(answer.id);
      // Idle, the intake does not keep the process alive; with a batch under way it does.
      if (waiting.size === 0) started.unref();
      if ("error" in answer) caller?.reject(new SqliteWriteError(answer.error.message, answer.error.code));
      else caller?.resolve(answer.results);
    });
    // Idle from the start (a port's message listener refs it).
    started.unref();
    return (thread = started);
  }

  function ask(request: { hooks: WireWebhook[] } | { finishBy: number }): Promise<IntakeResult[]> {
    return new Promise<IntakeResult[]>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      const started = writer();
      started.ref();
      started.postMessage({ id, ...request } satisfies ThreadRequest);
    });
  }

  // Started now: loading its modules takes a moment, better spent before the first webhook.
  writer();

  return {
    intake: (hooks) => ask({ hooks: hooks.map(toWire) }),
    // An empty batch: the thread opens the database and prepares its reads (and plans what an earlier process left kept).
    // Once more if the thread serving it crashed meanwhile: then in a thread of its own.
    ready: async () => void (await ask({ hooks: [] }).catch((error: unknown) => (error instanceof IntakeLost ? ask({ hooks: [] }) : Promise.reject(error)))),
    onPlanned: (listener) => void plannedListeners.push(listener),
    async close(deadlineMs = 10_000) {
      // What is kept would be planned by the next process to start; planned now, it is not left waiting for one.
      // Bounded: an intake that shares a thread answers only when that thread's event loop lets it.
      if (thread)
        await Promise.race([
          ask({ finishBy: Date.now() + deadlineMs }).catch((error: unknown) => planningFailed(String((error as Error)?.message ?? error))),
          new Promise((resolve) => setTimeout(resolve, deadlineMs + CLOSE_MARGIN_MS).unref()),
        ]);
      await thread?.end();
      thread = undefined;
    },
  };
}

/** A thread of the intake's own; `lost` once it ends. */
function ownThread({ entry, execArgv }: ThreadModule, settings: ThreadSettings, lost: (error: Error) => void): Channel {
  const worker = new Worker(entry, { workerData: settings, execArgv, resourceLimits: INTAKE_HEAP_LIMITS });
  const channel: Channel = {
    postMessage: (request) => worker.postMessage(request),
    on: (event, listener) => void worker.on(event, listener),
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    end: async () => void (await worker.terminate()),
  };
  worker.on("error", (error) => lost(new IntakeLost(error.message)));
  const startedId = worker.threadId;
  worker.on("exit", (code) => {
    sqliteWriteLock().releaseHeldBy(startedId);
    lost(new IntakeLost(`the SQLite intake thread stopped (${code})`));
  });
  return channel;
}

/** An intake served elsewhere; `lost` once its port closes (the thread that served it ended). */
function hostedChannel(port: MessagePort, lost: (error: Error) => void): Channel {
  const channel: Channel = {
    postMessage: (request) => port.postMessage(request),
    on: (event, listener) => void port.on(event, listener),
    ref: () => port.ref(),
    unref: () => port.unref(),
    end: async () => port.close(),
  };
  port.on("close", () => lost(new IntakeLost("the thread that served the SQLite intake stopped")));
  return channel;
}

/** The type of each column the intake writes, on PostgreSQL: what an array of its values is cast to. */
const POSTGRES_TYPES: Record<string, string> = { String: "text", DateTime: "timestamp(3)", Boolean: "boolean", Int: "integer" };

function columnTypes(table: string, columns: string[]): string[] {
  const fields = modelFields(table);
  return columns.map((column) => {
    const type = POSTGRES_TYPES[fields.find((f) => f.name === column)?.type ?? ""];
    if (!type) throw new Error(`The intake cannot write ${table}.${column}: not a column of a type it knows`);
    return type;
  });
}

/**
 * The statement that stores a whole batch on PostgreSQL: one INSERT per
 * table inside one statement (so one round trip, and one implicit
 * transaction: all its rows or none), each table's rows sent column by
 * column as arrays and spread back into rows by unnest. Its text depends
 * only on the columns, so the server parses and plans it once per
 * connection, where a multi-row VALUES made it parse, plan and bind a
 * parameter for every value of every row. A row that is not the first of
 * its group carries in "after" the id of that first row, and is inserted
 * only when the first row was (a delivery whose record exists already is a
 * repeat). A conflicting row, stored or earlier in the same batch, is
 * skipped as ON CONFLICT DO NOTHING skips it. It returns the ids of the
 * rows that were new.
 */
function batchStatementText(targets: Batch["targets"]): string {
  let param = 0;
  const arrays = (types: string[]) => types.map((type) => `$${++param}::${type}[]`).join(", ");
  const inserts = targets.map(({ table, columns }, t) => {
    const names = columns.map((c) => `"${c}"`).join(", ");
    const types = columnTypes(table, columns);
    const rows =
      t === 0
        ? `SELECT ${names} FROM unnest(${arrays(types)}) AS r(${names})`
        : `SELECT ${names} FROM unnest(${arrays(["text", ...types])}) AS r("after", ${names}) WHERE r."after" IS NULL OR r."after" IN (${targets
            .slice(0, t)
            .map((_, earlier) => `SELECT "id" FROM "new${earlier}"`)
            .join(" UNION ALL ")})`;
    return `"new${t}" AS (INSERT INTO "${table}" (${names}) ${rows} ON CONFLICT DO NOTHING RETURNING "id")`;
  });
  return `WITH ${inserts.join(", ")} ${targets.map((_, t) => `SELECT "id" FROM "new${t}"`).join(" UNION ALL ")}`;
}

/**
 * A text as PostgreSQL can hold it: U+0000 becomes U+FFFD (the replacement
 * character), where sent as it is it would fail the batch's statement, and
 * with it every other webhook of the batch, at every delivery.
 */
const storable = (value: Value): Value => (typeof value === "string" && value.includes("\0") ? value.replaceAll("\0", "\uFFFD") : value);

/** Where in a target's columns its unique key is (IntakeTable.conflictKey). */
function conflictColumns({ table, columns, conflictKey }: Batch["targets"][number]): number[] {
  return conflictKey.map((name) => {
    const at = columns.indexOf(name);
    if (at < 0) throw new Error(`The intake writes ${table} without ${name}, a column of its unique key`);
    return at;
  });
}

type KeyedRow = { after: Value; values: Value[] };

/** Orders rows by the values of `keyColumns`, one column after another. */
const byKey =
  (keyColumns: number[]) =>
  (a: KeyedRow, b: KeyedRow): number => {
    for (const c of keyColumns) {
      const x = String(a.values[c]);
      const y = String(b.values[c]);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };

/**
 * The batch's rows, table by table and column by column: the parameters of
 * batchStatementText. The statement inserts table by table (each "new" CTE
 * is read to its end before the next), and each table's rows go in the
 * order of their unique key, so two processes' batches that hold the same
 * orders take their locks in one order. In arrival order, each could wait
 * for a row the other had inserted first: a deadlock, which PostgreSQL ends
 * by failing one batch.
 */
function batchColumns(batch: Batch): Value[][] {
  const rows = batch.targets.map((): KeyedRow[] => []);
  for (const group of batch.groups) {
    group.forEach(([t, values], k) => {
      if (k > 0 && t <= group[0]![0]) throw new Error("A row of the intake waits for its group's first row, which must be of an earlier table");
      rows[t]!.push({ after: k === 0 ? null : group[0]![1][0]!, values: values.map(storable) });
    });
  }
  return rows.flatMap((tableRows, t) => {
    const target = batch.targets[t]!;
    // A table without rows in this batch may be written without its key's columns.
    if (tableRows.length > 0) tableRows.sort(byKey(conflictColumns(target)));
    const arrays = target.columns.map((_, c) => tableRows.map((row) => row.values[c]!));
    return (t === 0 ? arrays : [tableRows.map((row) => row.after), ...arrays]) as unknown as Value[][];
  });
}

/**
 * PostgreSQL on a pool of its own (not Prisma's, which the app's pages
 * share), so that a commit never queues behind other work of the process: a
 * batch is two statements whatever its size, the shops' state then the rows
 * (batchStatementText), and a third when the planner's lookup asks for one,
 * each parsed once per connection (their texts depend only on which tables a
 * batch writes).
 */
export function postgresIntakeStore(sql: PlainSql, planner: AnyIntakePlanner): IntakeStore {
  const intakeBatch = batchIntake(planner);
  const texts = new Map<string, string>();
  const batchText = (targets: Batch["targets"]) => {
    const key = targets.map(({ table, columns }) => `${table}:${columns.join(",")}`).join(";");
    let text = texts.get(key);
    if (!text) texts.set(key, (text = batchStatementText(targets)));
    return text;
  };
  const database: IntakeDatabase = {
    dialect: POSTGRES,
    select: async (text, params) => (await sql.boundRows(text, params)) as Row[],
    async insert(batch) {
      const rows = await sql.boundRows(batchText(batch.targets), batchColumns(batch));
      const fresh = new Set(rows.map((row) => row.id));
      return batch.groups.map((group) => group.length > 0 && fresh.has(group[0]![1][0]));
    },
  };
  return {
    intake: (deliveries) => intakeBatch(database, deliveries),
    ready: async () => void (await intakeBatch(database, [])),
    // Every webhook is planned before it is answered: nothing is ever kept for later.
    onPlanned: () => {},
    close: () => sql.close(),
  };
}
