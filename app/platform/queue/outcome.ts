import type { Statement } from "../db/sql.server";

/** What a job handler decided; the runner turns it into the job's next state. */
export type JobOutcome = JobStep & {
  /**
   * What the handler's own tables keep of this run (an order's result,
   * say): written in the same transaction as the job's new state, and only
   * while this worker still holds the job, so that a job taken over by
   * another worker leaves its result to that worker.
   */
  store?: Statement[];
};

type JobStep =
  | { type: "done" }
  /** Try again later; spends an attempt. `shopWaits`: the remote side asked the whole account to slow down (429), so the shop's other jobs of the same rate-limit group wait too. */
  | { type: "retry"; reason: string; afterMs?: number; shopWaits?: boolean }
  /** Stop for good; shown to the merchant with the reason. */
  | { type: "fail"; reason: string }
  /**
   * The shop cannot go on now (not connected, no campaign, refused credentials): its jobs are held, spending
   * nothing, until it is fixed. `cause` names why, for the runner's onShopPaused hook.
   */
  | PauseOutcome
  /**
   * Not ready yet (an order not recorded yet); spends no attempt. `behindLane`: the job waits for a later
   * job of its lane (its order's recording, say), so it goes to the end of the lane instead of holding it.
   */
  | { type: "wait"; reason: string; afterMs: number; behindLane?: boolean };

/**
 * The job waits (paused) until resumeShopJobs; so do the shop's other queued
 * jobs (local kinds aside), unless `alone`: what stops this one (Shopify
 * refusing the shop's token, say) does not stop jobs that never call Shopify.
 */
export type PauseOutcome = { type: "pause"; reason: string; cause?: string; alone?: boolean };

export const done: JobOutcome = { type: "done" };
