import type { PrismaClient } from "@prisma/client";
import { insertJob, isUniqueViolation } from "../../platform/queue/enqueue.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import { describeFlowAction, ENROL_HANDLE, type FlowActionRequest } from "./flow-request";
import { FLOW_ACTION_JOB } from "./job-kinds";

/**
 * Stores a signed Flow action run and its job in one transaction. A run Flow
 * delivers again (same action_run_id) is found and not stored twice: the
 * answer is the same, and the work runs once.
 */
export async function acceptFlowAction(db: PrismaClient, request: FlowActionRequest, now = new Date()): Promise<"accepted" | "repeated"> {
  const { shop, actionRunId, action } = request;
  try {
    await db.$transaction(async (tx) => {
      await tx.flowActionRun.create({
        data: {
          shop,
          actionRunId,
          handle: action.handle,
          request: describeFlowAction(action),
          customerId: action.handle === ENROL_HANDLE ? action.customerId : null,
          orderId: action.handle === ENROL_HANDLE ? null : action.orderId,
          payload: JSON.stringify(action),
          receivedAt: now,
        },
      });
      await insertJob(tx, FLOW_ACTION_JOB, { shop, subject: actionRunId, payload: { actionRunId }, runAt: now });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return "repeated";
    throw error;
  }
  notifyJobEnqueued();
  return "accepted";
}
