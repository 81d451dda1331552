import { openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { isMainThread, threadId } from "node:worker_threads";

// Counts the SQL statements a process sends to its database, for the
// benchmark (`npm run bench`), and only when DB_STATEMENT_COUNTS_DIR names a
// directory: then each thread that sends statements writes its counts, by
// source, to <dir>/<pid>-<threadId>.json up to ten times a second (when they
// changed; one small write over the file's start, which stays the same
// length), with its kernel thread id so that its CPU time can be read from
// /proc. Off (the default), counting is one comparison per call and the
// adapter is not wrapped.

const directory = process.env.DB_STATEMENT_COUNTS_DIR || undefined;
const counts: Record<string, number> = {};
let flushing: ReturnType<typeof setInterval> | undefined;
let changed = false;
let file: { fd: number; tid: number } | undefined;
/** Longer than any line of counts: padded to it, each write covers the last. */
const FILE_LENGTH = 1024;

/** What a thread writes; the benchmark reads it. */
export interface ThreadStatementCounts {
  pid: number;
  /** The kernel's id of the thread (/proc/<pid>/task/<tid>). */
  tid: number;
  threadId: number;
  mainThread: boolean;
  /** Statements sent, by source ("prisma", "intake"); BEGIN and COMMIT count as statements. */
  counts: Record<string, number>;
}

function flush(): void {
  if (!changed) return;
  changed = false;
  file ??= {
    fd: openSync(join(directory!, `${process.pid}-${threadId}.json`), "w"),
    tid: Number(readFileSync("/proc/thread-self/stat", "latin1").split(" ", 1)[0]),
  };
  const written: ThreadStatementCounts = { pid: process.pid, tid: file.tid, threadId, mainThread: isMainThread, counts };
  writeSync(file.fd, JSON.stringify(written).padEnd(FILE_LENGTH), 0);
}

export function countStatements(source: string, statements = 1): void {
  if (!directory) return;
  counts[source] = (counts[source] ?? 0) + statements;
  changed = true;
  if (!flushing) {
    flushing = setInterval(flush, 100);
    flushing.unref();
    process.once("exit", flush);
  }
}

export function statementCountsEnabled(): boolean {
  return directory !== undefined;
}

type Method = (...args: never[]) => unknown;

/** `target` with the named methods counting one statement per call before running; `then` wraps what they resolve to. */
function counting<T extends object>(target: T, methods: string[], then?: Partial<Record<string, (result: unknown) => unknown>>): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== "function") return value;
      const bound = (value as Method).bind(object) as (...args: unknown[]) => unknown;
      if (typeof key !== "string" || !methods.includes(key)) return bound;
      const after = then?.[key];
      return (...args: unknown[]) => {
        countStatements("prisma");
        const result = bound(...args);
        return after ? (result as Promise<unknown>).then(after) : result;
      };
    },
  });
}

/**
 * A Prisma driver adapter factory whose connections count every statement
 * they send: queries and commands, in transactions too, a transaction's BEGIN
 * (startTransaction) and its COMMIT or ROLLBACK (which Prisma sends as a command).
 */
export function countingAdapterFactory<F extends { connect(): Promise<object> }>(factory: F): F {
  const transaction = (tx: unknown) => counting(tx as object, ["queryRaw", "executeRaw"]);
  const connection = (adapter: unknown) =>
    counting(adapter as object, ["queryRaw", "executeRaw", "executeScript", "startTransaction"], { startTransaction: transaction });
  return new Proxy(factory, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (key === "connect" || key === "connectToShadowDb") return (...args: unknown[]) => (value as (...a: unknown[]) => Promise<unknown>).apply(object, args).then(connection);
      return typeof value === "function" ? (value as Method).bind(object) : value;
    },
  });
}
