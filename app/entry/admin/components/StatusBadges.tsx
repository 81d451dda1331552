import { Badge, type BadgeProps } from "@shopify/polaris";

// Red (critical) is kept for what went wrong and needs the merchant: a failed
// order, refused credentials. A decision the program made (denied, blocked,
// deactivated) is neutral; one that asks for a look (flagged) is attention.
type Tone = BadgeProps["tone"];

function badge(label: string, tone?: Tone, progress?: BadgeProps["progress"]) {
  return (
    <Badge tone={tone} progress={progress}>
      {label}
    </Badge>
  );
}

const ORDER: Record<string, [string, Tone, BadgeProps["progress"]?]> = {
  queued: ["Queued", "info", "incomplete"],
  awaiting_signal: ["Waiting for a pixel signal", "info", "incomplete"],
  recorded: ["Recorded", "success", "complete"],
  not_referred: ["Not referred", undefined],
  blocked: ["Blocked", "attention"],
  skipped: ["Skipped", undefined],
  failed: ["Failed", "critical"],
  reversed: ["Reversed", undefined, "complete"],
  needs_review: ["Needs review", "warning", "partiallyComplete"],
};

export function OrderStatusBadge({ status, held }: { status: string; held?: boolean }) {
  if (held) return badge("Held", "attention", "incomplete");
  const [label, tone, progress] = ORDER[status] ?? [status, undefined];
  return badge(label, tone, progress);
}

const COMMISSION: Record<string, [string, Tone]> = {
  pending: ["Pending", "attention"],
  approved: ["Approved", "success"],
  denied: ["Denied", undefined],
};

export function CommissionStatusBadge({ status }: { status: string | null }) {
  if (!status) return badge("Unknown");
  const [label, tone] = COMMISSION[status] ?? [status, undefined];
  return badge(label, tone);
}

const FRAUD: Record<string, [string, Tone]> = {
  flagged: ["Flagged", "attention"],
  fraudulent: ["Fraudulent", "warning"],
  scanning: ["Scanning", "info"],
  passed: ["Passed", "success"],
  immune: ["Immune", undefined],
  unflagged: ["Unflagged", undefined],
};

export function FraudBadge({ status }: { status: string | null }) {
  if (!status || status === "null") return badge("Not checked");
  const [label, tone] = FRAUD[status] ?? [status, undefined];
  return badge(label, tone);
}

export function ConnectionBadge({ status }: { status: string }) {
  if (status === "connected") return badge("Connected", "success", "complete");
  if (status === "broken") return badge("Needs new credentials", "critical", "incomplete");
  return badge("Not connected", undefined, "incomplete");
}

const AMBASSADOR: Record<string, [string, Tone]> = {
  enrolled: ["Active", "success"],
  prospect: ["Prospect", "info"],
  banned: ["Deactivated", undefined],
  unsubscribed: ["Unsubscribed", undefined],
};

export function AmbassadorStatusBadge({ status }: { status: string | null }) {
  if (!status) return badge("Unknown");
  const [label, tone] = AMBASSADOR[status] ?? [status, undefined];
  return badge(label, tone);
}
