import { useRouteLoaderData } from "@remix-run/react";
import { FooterHelp, Link } from "@shopify/polaris";
import { useEffect } from "react";
import type { SupportContact } from "../support-contact";

/** The app's support contact, as the embedded layout (routes/app) loads it; undefined outside it. */
export function useSupportContact(): SupportContact | undefined {
  return (useRouteLoaderData("routes/app") as { support?: SupportContact } | undefined)?.support;
}

function openContact(contact: SupportContact): void {
  window.open(contact.href, contact.href.startsWith("mailto:") ? "_top" : "_blank", "noopener");
}

/**
 * A help link under every admin page, and the same contact behind the
 * admin's own support button (App Bridge's support API, where the admin has it).
 */
export function SupportFooter() {
  const contact = useSupportContact();
  useEffect(() => {
    const support = (window as { shopify?: { support?: { registerHandler?: (callback: (() => void) | null) => Promise<void> } } }).shopify?.support;
    if (!contact || !support?.registerHandler) return;
    void support.registerHandler(() => openContact(contact)).catch(() => {});
    return () => void support.registerHandler?.(null).catch(() => {});
  }, [contact]);
  if (!contact) return null;
  return (
    <FooterHelp>
      Questions about Referral Bridge?{" "}
      <Link url={contact.href} target={contact.href.startsWith("mailto:") ? "_top" : "_blank"}>
        Contact support ({contact.label})
      </Link>
    </FooterHelp>
  );
}
