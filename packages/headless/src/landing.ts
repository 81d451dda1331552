import type { TrackingSettings } from "./settings";

/** A referral code kept on this device, with its campaign and when it stops counting. */
export interface KeptReferral {
  code: string;
  /** "" when the link named no campaign. */
  campaign: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface Landing {
  /** What is kept after this page: null when nothing (or only an expired code) is. */
  kept: KeptReferral | null;
  /** The code this page's URL carried, when it was a valid one (the friend's offer is applied on arrival). */
  arrived: { code: string; campaign: string } | null;
}

const DAY_MS = 86_400_000;

/** Trimmed, case kept; anything absurd (too long, markup or control characters) reads as no code. */
export function cleanCode(value: string | null | undefined): string {
  const trimmed = (value ?? "").trim();
  return trimmed.length <= 100 && !/[<>"]|[^\x20-\uffff]/.test(trimmed) ? trimmed : "";
}

/**
 * The embed's rule for one page view: an expired kept code is dropped; a code
 * in the URL is kept when nothing is, when it is the kept one (its lifetime
 * starts again), or on last touch; on first touch an unexpired other code stays.
 */
export function landOn(url: URL, previous: KeptReferral | null, settings: TrackingSettings, now: number): Landing {
  let kept = previous && previous.code && previous.expiresAt > now ? previous : null;
  const code = cleanCode(url.searchParams.get(settings.codeParam));
  if (!code) return { kept, arrived: null };
  const campaign = cleanCode(url.searchParams.get(settings.campaignParam));
  if (!kept || kept.code === code || settings.attribution === "last_touch") {
    kept = { code, campaign, expiresAt: now + settings.lifetimeDays * DAY_MS };
  }
  return { kept, arrived: { code, campaign } };
}
