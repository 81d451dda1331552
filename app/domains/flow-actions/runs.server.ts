import type { PrismaClient } from "@prisma/client";

/** How many of the latest Flow action runs the Service events page shows. */
export const FLOW_RUNS_SHOWN = 25;

export interface FlowActionRunRow {
  id: string;
  /** What Flow asked, e.g. "Enrol customer 6073… as an ambassador". */
  request: string;
  receivedAt: string;
  state: "queued" | "done" | "failed";
  /** The outcome or the error; null while queued and untried. */
  detail: string | null;
}

/** The shop's latest Flow action runs, newest first. */
export async function listFlowActionRuns(db: PrismaClient, shop: string): Promise<FlowActionRunRow[]> {
  const runs = await db.flowActionRun.findMany({
    where: { shop },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    take: FLOW_RUNS_SHOWN,
    select: { id: true, request: true, receivedAt: true, state: true, detail: true },
  });
  return runs.map((run) => ({
    id: run.id,
    request: run.request,
    receivedAt: run.receivedAt.toISOString(),
    state: run.state === "done" || run.state === "failed" ? run.state : "queued",
    detail: run.detail,
  }));
}
