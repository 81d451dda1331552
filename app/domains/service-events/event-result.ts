import type { JobOutcome } from "../../platform/queue/outcome";

/**
 * What acting on one event came to: settled (shown as it is; "held": waiting
 * for the merchant, who acts on the page) or a job outcome (retry, fail, ...).
 */
export type EventResult =
  | { settled: true; state: "processed" | "ignored" | "held"; detail: string }
  | { settled: false; outcome: Exclude<JobOutcome, { type: "done" }> };

export const processed = (detail: string): EventResult => ({ settled: true, state: "processed", detail });
export const ignored = (detail: string): EventResult => ({ settled: true, state: "ignored", detail });
export const held = (detail: string): EventResult => ({ settled: true, state: "held", detail });
export const unsettled = (outcome: Exclude<JobOutcome, { type: "done" }>): EventResult => ({ settled: false, outcome });
