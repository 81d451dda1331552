import { readFields } from "../field-reader";
import type { EmailStatsEntry } from "../types";

export function normaliseEmailStatsEntry(raw: unknown): EmailStatsEntry {
  const r = readFields(raw, "email statistics entry");
  const n = (key: string) => r.number(key) ?? 0;
  return {
    date: r.date("date"),
    delivered: n("delivered"),
    unsubscribes: n("unsubscribes"),
    invalidEmail: n("invalid_email"),
    bounces: n("bounces"),
    repeatUnsubscribes: n("repeat_unsubscribes"),
    uniqueClicks: n("unique_clicks"),
    blocked: n("blocked"),
    spamDrop: n("spam_drop"),
    repeatBounces: n("repeat_bounces"),
    repeatSpamreports: n("repeat_spamreports"),
    requests: n("requests"),
    spamreports: n("spamreports"),
    clicks: n("clicks"),
    opens: n("opens"),
    uniqueOpens: n("unique_opens"),
    extra: r.extra(),
  };
}
