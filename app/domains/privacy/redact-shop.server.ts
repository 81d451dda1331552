import type { PrismaClient } from "@prisma/client";
import type { Logger } from "../../platform/logger/logger.server";
import { jobsOfShop } from "../../platform/queue/shop-jobs.server";

/**
 * shop/redact (48 hours after uninstall): everything the app keeps for the
 * shop goes, credentials and settings included. Nothing is kept, not even a
 * log row: one log line says it happened.
 */
export async function redactShop(db: PrismaClient, logger: Logger, hook: { shop: string; webhookId: string | null }) {
  const where = { shop: hook.shop };
  const [jobs, orderRecords, serviceEvents, dataRequests, redactionLogs, payoutCredits, sessions, shops, offerCodes, offers, orderSyncs, pixelSignals, commissionBulkRuns, shareLinks, flowActionRuns, pendingDeliveries, referredCustomers, refusedDeliveries, couponBuyers, leakedCodes] = await db.$transaction([
    db.job.deleteMany({ where: jobsOfShop(hook.shop) }),
    db.orderRecord.deleteMany({ where }),
    db.serviceEvent.deleteMany({ where }),
    db.dataRequest.deleteMany({ where }),
    db.redactionLog.deleteMany({ where }),
    db.payoutCredit.deleteMany({ where }),
    db.session.deleteMany({ where }),
    db.shop.deleteMany({ where }),
    db.offerCode.deleteMany({ where }),
    db.friendOffer.deleteMany({ where }),
    db.orderSync.deleteMany({ where }),
    db.pixelSignal.deleteMany({ where }),
    db.commissionBulkRun.deleteMany({ where }),
    db.customerShareLink.deleteMany({ where }),
    db.flowActionRun.deleteMany({ where }),
    db.pendingDelivery.deleteMany({ where }),
    db.referredCustomer.deleteMany({ where }),
    db.refusedDelivery.deleteMany({ where }),
    db.couponBuyer.deleteMany({ where }),
    db.leakedCode.deleteMany({ where }),
  ]);
  const deleted = {
    jobs: jobs.count,
    orderRecords: orderRecords.count,
    serviceEvents: serviceEvents.count,
    dataRequests: dataRequests.count,
    redactionLogs: redactionLogs.count,
    payoutCredits: payoutCredits.count,
    sessions: sessions.count,
    shop: shops.count,
    offerCodes: offerCodes.count,
    friendOffers: offers.count,
    orderSyncs: orderSyncs.count,
    pixelSignals: pixelSignals.count,
    commissionBulkRuns: commissionBulkRuns.count,
    customerShareLinks: shareLinks.count,
    flowActionRuns: flowActionRuns.count,
    pendingDeliveries: pendingDeliveries.count,
    referredCustomers: referredCustomers.count,
    refusedDeliveries: refusedDeliveries.count,
    couponBuyers: couponBuyers.count,
    leakedCodes: leakedCodes.count,
  };
  logger.info({ shop: hook.shop, topic: "shop/redact", webhookId: hook.webhookId, deleted }, "shop redacted");
  return deleted;
}
