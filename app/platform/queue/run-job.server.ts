import type { Job } from "@prisma/client";
import { plainSql, type Statement } from "../db/sql.server";
import type { SqlValue } from "../db/sql-dialect";
import type { Logger } from "pino";
import { DEFAULT_BACKOFF, retryDelayMs, type BackoffPolicy } from "./backoff";
import { clearWriting, LeaseLostError, markWriting } from "./claim.server";
import type { JobOutcome, PauseOutcome } from "./outcome";
import type { JobMeta, JobRegistry, QueueContext } from "./registry";
import { holdShopJobs, pauseShopJobs } from "./shop-jobs.server";

export interface RunOptions {
  workerId: string;
  backoff?: BackoffPolicy;
  random?: () => number;
  /** Before a shop's jobs are held: what else a pause means (refused credentials mark the connection broken). */
  onShopPaused?(shop: string, outcome: PauseOutcome, now: Date): Promise<void>;
  /** Stores a job's new state (the group's first statement) with what its outcome stores; whether it was stored. The worker's batches settles; alone by default. */
  settle?(group: Statement[]): Promise<boolean>;
}

/** The job's new state, in the same words as Prisma's update would have used; its columns besides status. */
interface NextState {
  status: "done" | "failed" | "queued" | "paused";
  lastError?: string | null;
  runAt?: Date;
  laneAt?: Date;
  /** A run that spends no attempt gives back the one its claim counted. */
  attemptGivenBack?: boolean;
}

/** The statement that stores a job's next state, if `workerId` still holds it (a lease lost is another worker's job now). */
export function settleStatement(jobId: string, workerId: string, next: NextState, now: Date): Statement {
  const values: Record<string, SqlValue> = { id: jobId, worker: workerId, status: next.status, now };
  const set = [`"status" = :status`, `"lockedBy" = NULL`, `"leaseUntil" = NULL`, `"writingAt" = NULL`, `"updatedAt" = :now`];
  if (next.lastError !== undefined) {
    set.push(`"lastError" = :lastError`);
    values.lastError = next.lastError;
  }
  if (next.runAt) {
    set.push(`"runAt" = :runAt`);
    values.runAt = next.runAt;
  }
  if (next.laneAt) {
    set.push(`"laneAt" = :laneAt`);
    values.laneAt = next.laneAt;
  }
  if (next.attemptGivenBack) set.push(`"attempts" = "attempts" - 1`);
  return { sql: `UPDATE "Job" SET ${set.join(", ")} WHERE "id" = :id AND "lockedBy" = :worker AND "status" = 'running'`, values };
}

/** JobMeta.externalWrite for one run of a job: the job is marked while any of its writes is under way. */
function externalWriter(ctx: QueueContext, job: Job, workerId: string, log: Logger): JobMeta["externalWrite"] {
  let open = 0;
  return async (write) => {
    if (open === 0 && !(await markWriting(ctx.db, { jobId: job.id, workerId, now: ctx.now() }))) throw new LeaseLostError(job.id);
    open += 1;
    try {
      return await write();
    } finally {
      open -= 1;
      // Left marked if this fails: the job's settling clears it too.
      if (open === 0) await clearWriting(ctx.db, { jobId: job.id, workerId }).catch((error: unknown) => log.warn({ err: error }, "could not clear a job's external write mark"));
    }
  };
}

/** Runs one claimed job with its kind's definition and stores what became of it. */
export async function runJob<Ctx extends QueueContext>(ctx: Ctx, registry: JobRegistry<Ctx>, job: Job, options: RunOptions): Promise<JobOutcome> {
  const definition = registry.definition(job.kind);
  const log = ctx.logger.child({ shop: job.shop, jobId: job.id, kind: job.kind, attempt: job.attempts });
  let payload: unknown;
  let outcome: JobOutcome;
  if (!definition) {
    outcome = { type: "fail", reason: `Unknown job kind ${job.kind}` };
  } else {
    const parsed = definition.kind.payload.safeParse(JSON.parse(job.payload));
    payload = parsed.data;
    if (!parsed.success) outcome = { type: "fail", reason: `Malformed job payload: ${parsed.error.message}` };
    else {
      try {
        const externalWrite = externalWriter(ctx, job, options.workerId, log);
        outcome = await definition.handle(ctx, job.shop, parsed.data, { id: job.id, createdAt: job.createdAt, attempts: job.attempts, externalWrite });
      } catch (error) {
        log.error({ err: error }, "job handler threw");
        outcome = { type: "retry", reason: error instanceof Error ? error.message : String(error) };
      }
    }
  }

  const policy = options.backoff ?? DEFAULT_BACKOFF;
  if (outcome.type === "retry" && job.attempts >= policy.maxAttempts) {
    outcome = { type: "fail", reason: `Gave up after ${job.attempts} attempts. Last error: ${outcome.reason}`, store: outcome.store };
  }
  const now = ctx.now();
  const store = outcome.store ?? [];
  const apply = options.settle ?? (async (group: Statement[]) => (await plainSql(ctx.db).applyGroups([group]))[0]!);
  /** Stores the job's new state, and what its outcome stores, if this worker still holds it. */
  const settle = async (next: NextState) => {
    const stored = await apply([settleStatement(job.id, options.workerId, next, now), ...store]);
    if (!stored) log.warn({ outcome: outcome.type }, "the job's lease was lost while it ran; its result is left to the worker that holds it");
    return stored;
  };
  switch (outcome.type) {
    case "done":
      await settle({ status: "done", lastError: null });
      break;
    case "fail":
      if ((await settle({ status: "failed", lastError: outcome.reason })) && definition && payload !== undefined) {
        await definition.onFailed?.(ctx, job.shop, payload, outcome.reason, job.attempts);
      }
      break;
    case "retry": {
      // The remote side asked this account to slow down (429 with Retry-After): the shop's other queued
      // calls of the same group wait as long, instead of each being refused in turn; other shops go on.
      if (outcome.shopWaits && outcome.afterMs && definition?.rateLimitGroup) {
        await holdShopJobs(ctx.db, job.shop, registry.kindsSharing(definition.rateLimitGroup), new Date(now.getTime() + outcome.afterMs));
      }
      const delay = Math.max(retryDelayMs(job.attempts, policy, options.random), outcome.afterMs ?? 0);
      if ((await settle({ status: "queued", lastError: outcome.reason, runAt: new Date(now.getTime() + delay) })) && definition && payload !== undefined) {
        await definition.onAttempt?.(ctx, job.shop, payload, job.attempts, outcome.reason);
      }
      break;
    }
    case "wait":
      await settle({
        status: "queued",
        attemptGivenBack: true,
        runAt: new Date(now.getTime() + outcome.afterMs),
        ...(outcome.behindLane && job.lane ? { laneAt: now } : {}),
      });
      break;
    case "pause":
      await options.onShopPaused?.(job.shop, outcome, now);
      if (!outcome.alone) await pauseShopJobs(ctx.db, job.shop, outcome.reason, { except: registry.localKinds });
      if ((await settle({ status: "paused", attemptGivenBack: true, lastError: outcome.reason })) && definition && payload !== undefined) {
        await definition.onAttempt?.(ctx, job.shop, payload, job.attempts - 1, outcome.reason);
      }
      break;
  }
  log.info({ outcome: outcome.type, reason: "reason" in outcome ? outcome.reason : undefined }, "job finished");
  return outcome;
}
