import type { PrismaClient } from "@prisma/client";
import { insertJob, isUniqueViolation } from "../../platform/queue/enqueue.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import type { Logger } from "../../platform/logger/logger.server";
import { findInboundEndpoint } from "./endpoint.server";
import { emailList, emailsOf, parseEnvelope, referenceOf } from "./webhook-envelope";
import { SERVICE_EVENT_JOB } from "./job-kinds";
import { verifyWithAny } from "./signature.server";
import type { CredentialsKey } from "../../platform/crypto/sealing.server";

export interface InboundDelivery {
  endpointId: string;
  rawBody: string;
  /** The X-SERVICE-HMAC-SHA256 header, when sent. */
  signature: string | null;
}

export type ReceiveResult =
  | { status: 200; outcome: "stored" | "duplicate"; shop: string; eventId: string }
  | { status: 400; outcome: "malformed"; detail: string }
  | { status: 401; outcome: "unsigned" | "forged" }
  | { status: 404; outcome: "unknown_endpoint" }
  | { status: 503; outcome: "secret_unreadable" };

/**
 * Verifies one delivery and stores it with its job, in one transaction; the
 * action happens later, from the queue, so the service gets its answer in
 * milliseconds. A repeated event_id is answered 200 and changes nothing.
 */
export async function receiveServiceWebhook(
  db: PrismaClient,
  logger: Logger,
  delivery: InboundDelivery,
  options: { credentialsKey: CredentialsKey; now?: () => Date },
): Promise<ReceiveResult> {
  const endpoint = await findInboundEndpoint(db, delivery.endpointId, options);
  if (!endpoint) {
    logger.warn("service webhook for an unknown endpoint");
    return { status: 404, outcome: "unknown_endpoint" };
  }
  const log = logger.child({ shop: endpoint.shop });
  if ("unreadable" in endpoint) {
    // Answered 503, so the service keeps delivering it until the secret is rotated or the old key is back; the Service events page says so.
    log.error("service webhook refused: the endpoint's secret cannot be opened with CREDENTIALS_KEY (or CREDENTIALS_KEY_PREVIOUS)");
    return { status: 503, outcome: "secret_unreadable" };
  }
  if (!delivery.signature) {
    log.warn("unsigned service webhook refused");
    return { status: 401, outcome: "unsigned" };
  }
  // During a rotation's overlap the replaced secret verifies too; the log says which one did.
  const check = verifyWithAny(delivery.rawBody, delivery.signature, endpoint.secrets);
  if (!check.ok) {
    log.warn("service webhook with a wrong signature refused");
    return { status: 401, outcome: "forged" };
  }
  const parsed = parseEnvelope(delivery.rawBody);
  if (!parsed.ok) {
    log.warn({ detail: parsed.reason }, "malformed service webhook");
    return { status: 400, outcome: "malformed", detail: parsed.reason };
  }

  const { envelope } = parsed;
  const shop = endpoint.shop;
  try {
    await db.$transaction(async (tx) => {
      const event = await tx.serviceEvent.create({
        data: {
          shop,
          eventId: envelope.event_id,
          eventType: envelope.event_type,
          payload: delivery.rawBody,
          emails: emailList(emailsOf(envelope.event_data)),
          reference: referenceOf(envelope),
          serviceCreatedAt: envelope.created_at ?? null,
          signedForm: check.form,
        },
      });
      await insertJob(tx, SERVICE_EVENT_JOB, { shop, subject: event.id, payload: { serviceEventId: event.id } });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    log.info({ eventId: envelope.event_id, eventType: envelope.event_type, verifiedWith: check.which }, "service webhook repeated; already stored");
    return { status: 200, outcome: "duplicate", shop, eventId: envelope.event_id };
  }
  notifyJobEnqueued();
  log.info({ eventId: envelope.event_id, eventType: envelope.event_type, signedForm: check.form, verifiedWith: check.which }, "service webhook stored");
  return { status: 200, outcome: "stored", shop, eventId: envelope.event_id };
}
