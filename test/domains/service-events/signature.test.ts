import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyServiceSignature } from "../../../app/domains/service-events/signature.server";

const SECRET = "shop-secret";
const sign = (body: string, secret = SECRET) => createHmac("sha256", secret).update(body).digest("base64");

const body = JSON.stringify({
  webhook_version: 0.4,
  created_at: "2026-11-21T10:00:00",
  event_id: 1763719200001,
  event_type: "payout-created",
  event_data: { payout: { unit: "money", amount: 5, id: 12 }, contact: { email: "zoë@example.com", id: 3 } },
});

describe("verifyServiceSignature", () => {
  it("accepts the HMAC of the raw body", () => {
    expect(verifyServiceSignature(body, sign(body), SECRET)).toEqual({ ok: true, form: "raw" });
  });

  it("refuses the HMAC of the body re-serialised with sorted keys, compact or Python-style: only the raw bytes count", () => {
    const sorted = JSON.stringify(JSON.parse('{"created_at":"2026-11-21T10:00:00","event_data":{"contact":{"email":"zoë@example.com","id":3},"payout":{"amount":5,"id":12,"unit":"money"}},"event_id":1763719200001,"event_type":"payout-created","webhook_version":0.4}'));
    const python =
      '{"created_at": "2026-11-21T10:00:00", "event_data": {"contact": {"email": "zo\\u00eb@example.com", "id": 3}, ' +
      '"payout": {"amount": 5, "id": 12, "unit": "money"}}, "event_id": 1763719200001, "event_type": "payout-created", "webhook_version": 0.4}';
    expect(verifyServiceSignature(body, sign(sorted), SECRET)).toEqual({ ok: false });
    expect(verifyServiceSignature(body, sign(python), SECRET)).toEqual({ ok: false });
    expect(verifyServiceSignature(sorted, sign(sorted), SECRET)).toEqual({ ok: true, form: "raw" });
  });

  it("refuses another secret, a changed body, a missing or garbled header", () => {
    expect(verifyServiceSignature(body, sign(body, "other-secret"), SECRET)).toEqual({ ok: false });
    expect(verifyServiceSignature(body.replace('"amount":5', '"amount":500'), sign(body), SECRET)).toEqual({ ok: false });
    expect(verifyServiceSignature(body, null, SECRET)).toEqual({ ok: false });
    expect(verifyServiceSignature(body, "", SECRET)).toEqual({ ok: false });
    expect(verifyServiceSignature(body, "not base64!", SECRET)).toEqual({ ok: false });
    expect(verifyServiceSignature(body, sign(body).slice(0, 20), SECRET)).toEqual({ ok: false });
  });

  it("takes a body that is not JSON when its raw bytes are signed (the envelope check refuses it next)", () => {
    expect(verifyServiceSignature("{not json", sign("{not json", "other"), SECRET)).toEqual({ ok: false });
    expect(verifyServiceSignature("{not json", sign("{not json"), SECRET)).toEqual({ ok: true, form: "raw" });
  });
});
