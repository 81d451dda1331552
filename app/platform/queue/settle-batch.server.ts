import type { PlainSql, Statement } from "../db/sql.server";

/**
 * Settles of jobs that end at about the same time, stored together: while
 * one transaction commits, the settles that arrive wait for the next, so a
 * busy worker pays one commit (and on SQLite one sync to disk) for many
 * jobs. A batch that fails is tried again one group at a time, so one bad
 * job's statements never cost the others theirs.
 */
export function batchedSettles(sql: PlainSql): (group: Statement[]) => Promise<boolean> {
  type Waiting = { group: Statement[]; resolve(stored: boolean): void; reject(error: unknown): void };
  let waiting: Waiting[] = [];
  let committing = false;

  async function commit(batch: Waiting[]): Promise<void> {
    try {
      const applied = await sql.applyGroups(batch.map((w) => w.group));
      batch.forEach((w, i) => w.resolve(applied[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const w of batch) await commit([w]);
    }
  }

  async function drain(): Promise<void> {
    committing = true;
    // The jobs ending in this same turn of the event loop join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      await commit(batch);
    }
    committing = false;
  }

  return (group) =>
    new Promise<boolean>((resolve, reject) => {
      waiting.push({ group, resolve, reject });
      if (!committing) void drain();
    });
}
