import type { PrismaClient } from "@prisma/client";
import { outcomeOfServiceError } from "../connection";
import { done, type JobOutcome } from "../../platform/queue/outcome";
import type { PrivacyJobContext } from "./privacy-job-context";
import { isReferralApiError } from "../../platform/referral-api";
import { openToken, UnreadableSealedValue } from "../../platform/crypto/sealing.server";
import { KEY_LOST } from "./redact-customer.server";

/**
 * The job half of customers/redact: compliance/remove with confirm=1. The
 * sealed email is dropped as soon as the service has erased the person.
 */
export async function eraseAtService(ctx: PrivacyJobContext, shop: string, redactionId: string): Promise<JobOutcome> {
  const log = await ctx.db.redactionLog.findFirst({ where: { id: redactionId, shop } });
  if (!log?.pendingEmailSealed) return done;
  const finish = (serviceState: string, serviceDetail: string | null) =>
    ctx.db.redactionLog.updateMany({
      where: { id: log.id },
      data: { serviceState, serviceDetail, pendingEmailSealed: null, completedAt: ctx.now() },
    });

  const row = await ctx.db.shop.findUnique({ where: { shop }, select: { serviceTokenSealed: true } });
  if (!row?.serviceTokenSealed) {
    await finish("not_connected", "The shop was disconnected from the referral service before the erasure ran.");
    return done;
  }
  const connection = await ctx.clientForShop(shop);
  if (!connection.ok) return { type: "pause", reason: connection.reason };
  let email: string;
  try {
    email = openToken(log.pendingEmailSealed, ctx.credentialsKey, { shop, column: "RedactionLog.pendingEmailSealed" });
  } catch (error) {
    // Failed with its reason on the Data requests page; the sealed email stays, so Retry works once the old key is back.
    if (error instanceof UnreadableSealedValue) return { type: "fail", reason: KEY_LOST };
    throw error;
  }
  try {
    await connection.client.removePersonalData({ email, confirm: true });
  } catch (error) {
    if (isReferralApiError(error) && error.kind === "not_found") {
      await finish("done", "The referral service held nothing for this person.");
      return done;
    }
    return outcomeOfServiceError(error);
  }
  await finish("done", null);
  return done;
}

export async function noteErasureProblem(db: PrismaClient, shop: string, redactionId: string, change: { failed: boolean; reason: string }) {
  await db.redactionLog.updateMany({
    where: { id: redactionId, shop, serviceState: "pending" },
    data: change.failed ? { serviceState: "failed", serviceDetail: change.reason } : { serviceDetail: `Will retry: ${change.reason}` },
  });
}
