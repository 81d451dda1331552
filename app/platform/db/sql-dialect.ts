// How plain SQL (the order intake, the job claim) writes values the way
// Prisma stores them, on each database.

export type SqlValue = string | number | boolean | Date | null;

export interface SqlDialect {
  /** For a statement whose text differs between the two (a list as a JSON text on SQLite, an array on PostgreSQL). */
  name: "sqlite" | "postgresql";
  placeholder(index: number): string;
  time(date: Date): SqlValue;
  flag(value: boolean): SqlValue;
  /** A list can be bound as one parameter (an array), e.g. for unnest($1::text[]). */
  arrayParams: boolean;
}

/** `format`, remembering its last answer: the rows of a batch share a few instants, so most calls repeat the one before. */
export function lastOfInstant(format: (ms: number) => string): (ms: number) => string {
  let last = { ms: NaN, text: "" };
  return (ms) => {
    if (ms !== last.ms) last = { ms, text: format(ms) };
    return last.text;
  };
}

const sqliteTimeAt = lastOfInstant((ms) => `${new Date(ms).toISOString().slice(0, -1)}+00:00`);

export const SQLITE: SqlDialect = {
  name: "sqlite",
  placeholder: () => "?",
  /** As Prisma's SQLite adapter stores a DateTime (so that its comparisons keep working). */
  time: (date) => sqliteTimeAt(date.getTime()),
  /** As Prisma stores a Boolean in SQLite. */
  flag: (value) => (value ? 1 : 0),
  arrayParams: false,
};

const postgresTimeAt = lastOfInstant((ms) => new Date(ms).toISOString());

export const POSTGRES: SqlDialect = {
  name: "postgresql",
  placeholder: (index) => `$${index + 1}`,
  /**
   * UTC text, which a timestamp(3) column (Prisma's, UTC without a zone)
   * takes as it is. A Date would reach the server as pg writes it, in the
   * process's local time with an offset that such a column ignores.
   */
  time: (date) => postgresTimeAt(date.getTime()),
  flag: (value) => value,
  arrayParams: true,
};

/** A time column as read back: SQLite keeps Prisma's text, PostgreSQL's driver gives a Date. */
export function timeOf(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(String(value).replace(" ", "T"));
}
