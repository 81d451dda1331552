import type { PrismaClient } from "@prisma/client";
import { outcomeOfServiceError } from "../connection";
import { done, type JobOutcome } from "../../platform/queue/outcome";
import type { PrivacyJobContext } from "./privacy-job-context";
import { isReferralApiError } from "../../platform/referral-api";
import { customerOrderRecordsWhere, serviceEventIdsByEmail, type CustomerKey } from "./customer-rows.server";

/** What the app itself keeps about one customer. */
export async function gatherLocalRows(db: PrismaClient, shop: string, key: CustomerKey) {
  const [orderRecords, serviceEvents, storeCredits] = await Promise.all([
    db.orderRecord.findMany({
      where: await customerOrderRecordsWhere(db, shop, key),
      orderBy: { createdAt: "asc" },
      select: {
        orderId: true,
        orderName: true,
        email: true,
        customerId: true,
        shortCode: true,
        couponCode: true,
        campaignUids: true,
        revenue: true,
        currency: true,
        status: true,
        statusReason: true,
        commissionState: true,
        createdAt: true,
        recordedAt: true,
      },
    }),
    db.serviceEvent.findMany({
      where: { shop, id: { in: await serviceEventIdsByEmail(db, shop, key.email) } },
      orderBy: { receivedAt: "asc" },
      select: { eventId: true, eventType: true, receivedAt: true, payload: true },
    }),
    key.email
      ? db.payoutCredit.findMany({
          where: { shop, email: key.email },
          select: { payoutId: true, amount: true, currency: true, state: true, createdAt: true },
        })
      : Promise.resolve([]),
  ]);
  return {
    orderRecords,
    serviceEvents: serviceEvents.map(({ payload, ...event }) => ({ ...event, body: JSON.parse(payload) as unknown })),
    storeCredits,
  };
}

interface ServicePart {
  asked: boolean;
  found: boolean;
  note: string;
  data?: Record<string, unknown>;
}

type ServiceAnswer = { part: ServicePart } | { outcome: JobOutcome };

async function askService(ctx: PrivacyJobContext, shop: string, email: string | null): Promise<ServiceAnswer> {
  if (!email) return { part: { asked: false, found: false, note: "Shopify sent no email address, so the referral service was not asked." } };
  const row = await ctx.db.shop.findUnique({ where: { shop }, select: { serviceTokenSealed: true } });
  if (!row?.serviceTokenSealed) {
    return { part: { asked: false, found: false, note: "The shop is not connected to a referral service, so no data is kept there." } };
  }
  const connection = await ctx.clientForShop(shop);
  if (!connection.ok) return { outcome: { type: "pause", reason: connection.reason } };
  try {
    const exported = await connection.client.exportPersonalData({ email });
    return { part: { asked: true, found: true, note: "Personal data export from the referral service (compliance/export).", data: exported.raw } };
  } catch (error) {
    if (isReferralApiError(error) && error.kind === "not_found") {
      return { part: { asked: true, found: false, note: "The referral service holds no personal data for this email address." } };
    }
    return { outcome: outcomeOfServiceError(error) };
  }
}

/**
 * The job of a customers/data_request: the service's export (the client waits
 * for the 6-per-minute limit; a 429 that still comes back makes the job retry)
 * and the app's own rows, stored as the request's report.
 */
export async function buildDataRequestReport(ctx: PrivacyJobContext, shop: string, dataRequestId: string): Promise<JobOutcome> {
  const request = await ctx.db.dataRequest.findFirst({ where: { id: dataRequestId, shop } });
  if (!request || request.status !== "open") return done;
  const orderIds = JSON.parse(request.ordersRequested) as string[];
  const key: CustomerKey = { email: request.email, customerId: request.customerId, orderIds };

  const service = await askService(ctx, shop, request.email);
  if ("outcome" in service) return service.outcome;
  const app = await gatherLocalRows(ctx.db, shop, key);
  const generatedAt = ctx.now();
  const report = {
    topic: "customers/data_request",
    shop,
    dataRequestId: request.requestId,
    customer: { id: request.customerId, email: request.email },
    ordersRequested: orderIds,
    receivedAt: request.receivedAt.toISOString(),
    generatedAt: generatedAt.toISOString(),
    referralService: service.part,
    app,
  };
  await ctx.db.dataRequest.updateMany({
    where: { id: request.id, status: "open" },
    data: { status: "ready", statusDetail: null, report: JSON.stringify(report), completedAt: generatedAt },
  });
  return done;
}

export async function markDataRequest(db: PrismaClient, shop: string, dataRequestId: string, change: { failed: boolean; reason: string }) {
  await db.dataRequest.updateMany({
    where: { id: dataRequestId, shop, status: "open" },
    data: change.failed ? { status: "failed", statusDetail: change.reason } : { statusDetail: `Will retry: ${change.reason}` },
  });
}
