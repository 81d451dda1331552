import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { action } from "../../../app/routes/referral-webhooks.$endpointId";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { signServiceBody } from "../../../app/domains/service-events/signature.server";
import { resetDatabase } from "../../support/database";
import { installShop } from "../../support/sessions";
import { routeArgs, TEST_SHOP } from "../../support/shopify-requests";

// The service's webhooks through their route: only the raw bytes' signature
// counts, and an event created long ago is a replay.

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});

const serviceTime = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 19);

async function post(body: string, signature: string) {
  const { endpointId } = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
  const request = new Request(`https://referral-bridge.test/referral-webhooks/${endpointId}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", "X-SERVICE-HMAC-SHA256": signature },
  });
  return action(routeArgs(request, { endpointId }));
}

const secret = async () => (await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY })).secret;

describe("service webhooks", () => {
  it("refuses a signature over the body re-serialised with sorted keys, and takes the raw body's", async () => {
    const body = JSON.stringify({ event_type: "contact-created", event_id: 71, created_at: serviceTime(60_000), event_data: { contact: { id: 3, email: "zoe@example.com" } } });
    const sorted = JSON.stringify({ created_at: JSON.parse(body).created_at, event_data: { contact: { email: "zoe@example.com", id: 3 } }, event_id: 71, event_type: "contact-created" });
    expect((await post(body, signServiceBody(await secret(), sorted))).status).toBe(401);
    expect(await prisma.serviceEvent.count()).toBe(0);
    expect((await post(body, signServiceBody(await secret(), body))).status).toBe(200);
    expect(await prisma.serviceEvent.count()).toBe(1);
  });

  it("refuses an event created more than three days ago, however well signed", async () => {
    const old = JSON.stringify({ event_type: "contact-created", event_id: 72, created_at: serviceTime(4 * 24 * 3600_000), event_data: {} });
    const garbled = JSON.stringify({ event_type: "contact-created", event_id: 73, created_at: "yesterday-ish", event_data: {} });
    const recent = JSON.stringify({ event_type: "contact-created", event_id: 74, created_at: serviceTime(2 * 3600_000), event_data: {} });
    expect((await post(old, signServiceBody(await secret(), old))).status).toBe(400);
    expect((await post(garbled, signServiceBody(await secret(), garbled))).status).toBe(400);
    expect((await post(recent, signServiceBody(await secret(), recent))).status).toBe(200);
    expect((await prisma.serviceEvent.findMany({ select: { eventId: true } })).map((e) => e.eventId)).toEqual(["74"]);
  });
});
