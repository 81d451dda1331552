import type { z } from "zod";
import { matchPixelSignal } from "./pixel-signals.server";
import { PIXEL_JOB_PAYLOADS, PIXEL_MATCH_JOB } from "./job-kinds";
import type { JobContext } from "../wiring/job-context";
import { done, type JobOutcome } from "../queue/outcome";

const payload = PIXEL_JOB_PAYLOADS[PIXEL_MATCH_JOB];

/** A pixel signal looking for its order: re-opens it if it was judged not referred, else looks again later (spending no attempt). */
export const pixelMatchJob = {
  kind: PIXEL_MATCH_JOB,
  payload,
  async handle(ctx: JobContext, shop: string, match: z.infer<typeof payload>): Promise<JobOutcome> {
    const wait = await matchPixelSignal(ctx.db, shop, match, ctx.now());
    return wait === null ? done : { type: "wait", reason: "The order of this checkout is not settled yet", afterMs: wait };
  },
} as const;
