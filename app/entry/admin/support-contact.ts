// How merchants reach the app's support, from the configuration
// (SUPPORT_CONTACT): a link for the admin's footer and error pages.

export interface SupportContact {
  /** What the merchant reads: the address, or the support page's host. */
  label: string;
  /** mailto: for an address, the page itself for a URL. */
  href: string;
}

/** The configured contact (an address or an https page); without one, support@ the app's own host. */
export function supportContact(configured: string | undefined, appUrl: string): SupportContact {
  const value = configured?.trim();
  if (value && /^https:\/\//.test(value)) return { label: new URL(value).host, href: value };
  const email = value || `support@${new URL(appUrl).hostname}`;
  return { label: email, href: `mailto:${email}` };
}
