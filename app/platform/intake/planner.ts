import type { SqlDialect } from "../db/sql-dialect";

// What the intake is handed, as the queue is handed its job registry: a
// planner that reads a delivery and says which rows it asks for. The intake
// knows deliveries, tables and rows; what they mean is the planner's.

/** The body of a delivery as it came over the wire, not yet parsed. */
export class RawJson {
  constructor(readonly bytes: Buffer) {}
}

export interface Delivery {
  /** As authenticate.webhook gives it, e.g. ORDERS_PAID. */
  topic: string;
  shop: string;
  /**
   * The parsed body, or its raw bytes as delivered. Raw bytes are parsed
   * only when the delivery is read, so that one waiting for its batch holds
   * one buffer rather than a tree of objects that the garbage collector
   * would copy over and over.
   */
  payload: unknown;
  webhookId: string | null;
  triggeredAt: Date | null;
  /** Set when the app read the delivery itself (from an API) instead of receiving it. */
  arrivedBy?: string;
}

/** What a column can be written with. */
export type IntakeValue = string | number | boolean | Date | null;

/** A table plans write. */
export interface IntakeTable {
  table: string;
  /** Its unique key but its id: what two batches' rows for the same thing conflict on. */
  conflictKey: readonly string[];
  /** Columns every row of the table is written with. */
  fixed?: Readonly<Record<string, IntakeValue>>;
}

/** A row to insert; every row of a table has the same fields, in the same order. */
export interface IntakeRow {
  table: string;
  values: Readonly<Record<string, IntakeValue>>;
}

/** A row of `table` with `values`, whatever interface describes them. */
export const intakeRow = <T extends { [K in keyof T]: IntakeValue }>(table: string, values: T): IntakeRow => ({ table, values: values as Record<string, IntakeValue> });

/**
 * What a delivery asks to store, together or not at all, its rows in the
 * order of the planner's tables. When its first row exists already (stored
 * before), the delivery is a repeat and the rest are not inserted.
 */
export type IntakeWrite = IntakeRow[];

/** A delivery planned: its outcome (the planner's word), and what to store. */
export interface Plan {
  outcome: string;
  detail?: string;
  write?: IntakeWrite;
}

/**
 * What became of a delivery: the outcome of its plan, or one of the
 * intake's own. "queued": it stored work for the worker (the intake wakes
 * it); "duplicate": its first row was stored before; "malformed": it cannot
 * be read (detail says where); "no_session": its shop does not have the app;
 * "accepted": kept as it came, to be planned in a moment (SQLite, decision
 * 022: what it then becomes is reported apart); "set_aside": a kept
 * delivery whose planning failed on it alone, planned again at the next start.
 */
export interface IntakeResult {
  outcome: string;
  detail?: string;
}

/** A shop as planning sees it. */
export interface ShopState<Settings> {
  /** The shop's offline session exists (it has the app installed). */
  hasSession: boolean;
  settings: Settings;
}

/** A delivery read, of a shop that has the app: what a batch's lookup is handed. */
export interface ReadDelivery<Read, Settings> {
  delivery: Delivery;
  read: Read;
  settings: Settings;
}

/** A read of the database: its text, and its parameters (a list where the dialect has arrayParams). */
export interface IntakeQuery {
  sql: string;
  params: (IntakeValue | IntakeValue[])[];
}

/** A row as a lookup reads it back: times as SQLite's text or PostgreSQL's Date (timeOf reads both). */
export type IntakeRowRead = Readonly<Record<string, IntakeValue>>;

/**
 * One read a planner asks for a whole batch, once its deliveries are read
 * and before any is planned (rows its plans join with, say): one statement
 * or none, whatever the batch's size, outside the batch's write.
 */
export interface BatchLookup<Read, Settings, Found> {
  /** The statement for these deliveries in `dialect`; null when none of them needs it (no statement is run). */
  query(batch: readonly ReadDelivery<Read, Settings>[], dialect: SqlDialect): IntakeQuery | null;
  /** What the rows read (none without a statement) tell the batch's plans. */
  found(rows: readonly IntakeRowRead[]): Found;
}

/**
 * How deliveries are planned. `read`, `lookup` and `plan` are pure: the
 * intake reads the shops' state for a whole batch, reads each delivery,
 * runs the planner's lookup for the batch, plans each delivery, then stores
 * the batch in one transaction. On SQLite it runs in the intake's thread,
 * so a planner imports only what planning needs.
 */
export interface IntakePlanner<Read, Settings, Found = undefined> {
  /** Checked by serveIntake: a thread serves the planner its store was made with. */
  readonly name: string;
  /** The Shop columns plans read, with the value of each for a shop without a Shop row. */
  readonly shopColumns: Readonly<Record<string, string>>;
  shopSettings(columns: Readonly<Record<string, string>>): Settings;
  /** What a delivery holds, or why it cannot be read ("<field path>: expected …"); needs no state, no database. */
  read(delivery: Delivery): { read: Read } | { malformed: string };
  /** The batch's one read, when plans need rows of the database. */
  readonly lookup?: BatchLookup<Read, Settings, Found>;
  /** The plan of a delivery read, of a shop that has the app; `found`: what the batch's lookup found. */
  plan(delivery: Delivery, read: Read, settings: Settings, found: Found): Plan;
  /** The tables plans write, in the order a write's rows come. */
  readonly tables: readonly IntakeTable[];
}

/** A planner whatever it reads, its shops' settings and its lookup are. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyIntakePlanner = IntakePlanner<any, any, any>;
