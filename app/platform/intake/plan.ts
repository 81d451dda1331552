import type { AnyIntakePlanner, Delivery, IntakeResult, IntakeWrite, ReadDelivery, ShopState } from "./planner";

// Reading and planning a batch with the planner the intake was handed, the
// same on both databases: a delivery that cannot be read is malformed
// whether it is planned at once (PostgreSQL) or kept first (SQLite checks
// it before keeping it).

/** What `error` makes of a delivery no reader foresaw (an amount past the money range, a key named __proto__). */
function unforeseen(error: unknown): { malformed: string } {
  const what = error instanceof RangeError ? "a number or amount out of range" : "a value the app cannot read";
  return { malformed: `the payload holds ${what}` };
}

/** What a delivery holds, or why it cannot be read; never an exception that would fail the others of its batch. */
export function checkDelivery<Read>(planner: AnyIntakePlanner, delivery: Delivery): { read: Read } | { malformed: string } {
  try {
    return planner.read(delivery) as { read: Read } | { malformed: string };
  } catch (error) {
    return unforeseen(error);
  }
}

/** A batch planned: the outcome of each delivery, and the writes to store together. */
export interface BatchPlan {
  results: IntakeResult[];
  writes: IntakeWrite[];
  /** For each write, the index of its delivery. */
  written: number[];
}

/** A batch's deliveries read: the outcome of each that cannot be planned, and those that can be. */
export interface BatchRead {
  results: IntakeResult[];
  readable: (ReadDelivery<unknown, unknown> & { index: number })[];
}

/** Reads each delivery of a batch; one that cannot be read is malformed, one of a shop without the app no_session. */
export function readBatch(planner: AnyIntakePlanner, deliveries: Delivery[], states: Map<string, ShopState<unknown>>): BatchRead {
  const batch: BatchRead = { results: [], readable: [] };
  deliveries.forEach((delivery, index) => {
    const checked = checkDelivery(planner, delivery);
    if ("malformed" in checked) return void (batch.results[index] = { outcome: "malformed", detail: checked.malformed });
    const shop = states.get(delivery.shop)!;
    if (!shop.hasSession) return void (batch.results[index] = { outcome: "no_session" });
    batch.readable.push({ delivery, read: checked.read, settings: shop.settings, index });
  });
  return batch;
}

/** Plans the deliveries read, handing each plan what the batch's lookup found. */
export function planBatch(planner: AnyIntakePlanner, { results, readable }: BatchRead, found: unknown): BatchPlan {
  const batch: BatchPlan = { results: [...results], writes: [], written: [] };
  for (const { delivery, read, settings, index } of readable) {
    let planned;
    try {
      planned = planner.plan(delivery, read, settings, found);
    } catch (error) {
      batch.results[index] = { outcome: "malformed", detail: unforeseen(error).malformed };
      continue;
    }
    batch.results[index] = { outcome: planned.outcome, detail: planned.detail };
    if (planned.write) {
      batch.writes.push(planned.write);
      batch.written.push(index);
    }
  }
  return batch;
}

/** The outcomes once the writes are stored; `fresh[k]` is false when write k was stored before (a repeated delivery). */
export function batchOutcomes(batch: BatchPlan, fresh: boolean[]): IntakeResult[] {
  const results = [...batch.results];
  batch.written.forEach((i, k) => {
    if (!fresh[k]) results[i] = { outcome: "duplicate" };
  });
  return results;
}
