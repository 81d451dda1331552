import type { PrismaClient } from "@prisma/client";
import type { ReferralClient } from "../../platform/referral-api";
import { shareCodeOfLink } from "./share-code";

// Which share codes a campaign's offer should hold, learnt from the referral
// service: every active ambassador's code for the campaign (ambassador/all,
// then ambassador/get once per ambassador not seen before, since the list
// carries no links), and the deactivated ones whose codes must go.

export type CodeState = "waiting" | "added" | "taken" | "removing" | "removed";

interface Known {
  email: string;
  state: string;
}

/** The code of one ambassador in the campaign, or null when they have none there. */
export async function ambassadorCode(client: ReferralClient, email: string, campaignUid: string): Promise<string | null> {
  const { ambassador } = await client.getAmbassador({ email });
  const link = ambassador.campaignLinks.find((l) => l.campaignUid === campaignUid);
  return shareCodeOfLink(link?.url);
}

/** Stores one active ambassador's code as waiting (a new one, or one that comes back). Returns true when something changed. */
export async function noteActiveAmbassador(
  db: PrismaClient,
  client: ReferralClient,
  key: { shop: string; campaignUid: string },
  email: string,
  known?: Known,
): Promise<boolean> {
  const lower = email.toLowerCase();
  if (known && known.state !== "removed" && known.state !== "removing") return false;
  if (known) {
    await db.offerCode.updateMany({ where: { ...key, email: lower }, data: { state: "waiting", detail: null } });
    return true;
  }
  const code = await ambassadorCode(client, email, key.campaignUid);
  if (!code) return false;
  await db.offerCode.upsert({
    where: { shop_campaignUid_email: { ...key, email: lower } },
    create: { ...key, email: lower, code, state: "waiting" },
    update: {},
  });
  return true;
}

/** Brings the stored codes in step with the service's ambassadors. */
export async function refreshCodes(db: PrismaClient, client: ReferralClient, key: { shop: string; campaignUid: string }): Promise<void> {
  const rows = await db.offerCode.findMany({ where: key, select: { email: true, state: true } });
  const known = new Map(rows.map((r) => [r.email, r]));
  for await (const ambassador of client.iterateAmbassadors({ isActive: true })) {
    if (!ambassador.email) continue;
    await noteActiveAmbassador(db, client, key, ambassador.email, known.get(ambassador.email.toLowerCase()));
  }
  for await (const ambassador of client.iterateAmbassadors({ isActive: false })) {
    const row = ambassador.email ? known.get(ambassador.email.toLowerCase()) : undefined;
    if (!row) continue;
    const email = ambassador.email!.toLowerCase();
    if (row.state === "added") await db.offerCode.updateMany({ where: { ...key, email }, data: { state: "removing" } });
    else if (row.state === "waiting" || row.state === "taken") {
      await db.offerCode.updateMany({ where: { ...key, email }, data: { state: "removed", detail: "The ambassador was deactivated" } });
    }
  }
}
