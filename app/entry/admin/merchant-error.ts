/**
 * A problem told to the merchant: what happened and what they can do about it.
 * Plain data, so loaders and actions can hand it to the page.
 */
export interface MerchantError {
  title: string;
  message: string;
  /** Where the merchant can fix it, e.g. Settings. */
  action?: { content: string; url: string };
  /** The service's own words, when it gave any. */
  details?: string[];
  /** Trying again later may work. */
  retryable: boolean;
}

export const SETTINGS_ACTION = { content: "Open Settings", url: "/app/settings" } as const;

export function notConnectedError(reason?: string): MerchantError {
  return {
    title: "Connect your referral program first",
    message: reason ?? "Enter your referral service username and API token in Settings to see this page.",
    action: { content: "Connect in Settings", url: "/app/settings" },
    retryable: false,
  };
}
