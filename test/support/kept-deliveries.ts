import { expect } from "vitest";
import type { IntakeStore } from "../../app/platform/intake/intake-store.server";
import type { IntakeResult } from "../../app/platform/intake/planner";

/**
 * Resolves once the intake has planned every order webhook it kept: on
 * SQLite a delivery is answered once kept, and its order record and job are
 * stored a moment later (decision 022); PostgreSQL keeps none.
 */
export async function deliveriesPlanned(timeoutMs = 10_000): Promise<void> {
  // Loaded when first asked, as database.ts loads it: the test's database is chosen before.
  const { default: prisma } = await import("../../app/wiring/db.server");
  const until = Date.now() + timeoutMs;
  // One set aside (its planning failed on it alone) waits for the next start, not for this.
  while ((await prisma.pendingDelivery.count({ where: { failure: null } })) > 0) {
    if (Date.now() > until) throw new Error(`order webhooks were still kept, not planned, after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The answer to a verified order webhook whose payload cannot be read: a
 * 400 naming why, on both databases (SQLite reads a delivery before it
 * keeps it).
 */
export async function expectUnreadable(response: Response, reason: RegExp): Promise<void> {
  expect([response.status, await response.text()]).toEqual([400, expect.stringMatching(reason)]);
}

/**
 * The store, answering each webhook with what became of it: a delivery it
 * keeps (SQLite) is answered once planned, with the outcome the app logs.
 */
export function plannedStore(store: IntakeStore): IntakeStore {
  // Kept deliveries are planned in the order they were kept, which is the order of their answers.
  const waiting: ((result: IntakeResult) => void)[] = [];
  store.onPlanned((planned) => {
    for (const { result } of planned) waiting.shift()?.(result);
  });
  return {
    ...store,
    async intake(hooks) {
      const results = await store.intake(hooks);
      return Promise.all(results.map((result) => (result.outcome === "accepted" ? new Promise<IntakeResult>((resolve) => waiting.push(resolve)) : result)));
    },
  };
}
