// Plain SQL that notes each statement it is handed (bound as the given database binds it) before running it.
import { bindNamed, type PlainSql, type Statement } from "../../app/platform/db/sql.server";

/** What one entry point sent: SQL bound the database's way, and its values. */
export type Sent = { sql: string; params: unknown[] };

export function notingStatements(sql: PlainSql, database: Parameters<typeof bindNamed>[1], onSent: (sent: Sent) => void): PlainSql {
  const note = (statement: Statement) => {
    const [text, params] = bindNamed(statement, database);
    onSent({ sql: text, params });
  };
  return new Proxy(sql, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key === "rows" || key === "run") return (statement: Statement) => (note(statement), (value as (s: Statement) => unknown).call(target, statement));
      if (key === "applyGroups") return (groups: Statement[][]) => (groups.flat().forEach(note), (value as (g: Statement[][]) => unknown).call(target, groups));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
