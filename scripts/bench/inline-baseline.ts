// The naive design the benchmark compares against: the webhook handler
// verifies the request and calls event/record inside it, answering only when
// the referral service has answered. Same verification, attribution and
// client as the app; no queue. Started by scripts/bench/main.ts.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { createReferralClient } from "../../app/platform/referral-api";
import { readOrderEvent } from "../../app/domains/referrals/order-event";
import { leadingLink } from "../../app/domains/referrals/referral-decision";
import { readOrderPayload } from "../../app/domains/referrals/order-payload";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "../../app/domains/referrals/pipeline-settings";

const secret = process.env.SHOPIFY_API_SECRET!;
const client = createReferralClient({
  baseUrl: process.env.SERVICE_BASE_URL!,
  username: process.env.SERVICE_USERNAME!,
  token: process.env.SERVICE_TOKEN!,
  network: { allowLoopback: true },
});
const settings = readPipelineSettings({ ...PIPELINE_DEFAULTS, campaignUids: "1001" });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", async () => {
    const raw = Buffer.concat(chunks);
    const expected = createHmac("sha256", secret).update(raw).digest();
    const given = Buffer.from(String(req.headers["x-shopify-hmac-sha256"] ?? ""), "base64");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401).end();
      return;
    }
    try {
      const reading = readOrderEvent(readOrderPayload(JSON.parse(raw.toString("utf8"))), settings);
      if (reading.kind === "record") {
        const shortCode = leadingLink(reading.event.signals)?.code;
        await client.recordEvent({ ...reading.event.params, shortCode, campaignUid: reading.event.campaignUids[0]! });
      }
      res.writeHead(200).end();
    } catch {
      res.writeHead(500).end();
    }
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready"));
