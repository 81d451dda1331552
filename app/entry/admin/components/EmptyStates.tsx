import { Card, EmptyState } from "@shopify/polaris";
import type { ReactNode } from "react";
import type { MerchantError } from "../merchant-error";
import { useEmbeddedHref } from "./embedded-url";
import { CONNECT_ILLUSTRATION, EMPTY_LIST_ILLUSTRATION } from "./illustrations";

/** The page can't show anything before the program is connected (or while its credentials are refused). */
export function NotConnectedState({ error }: { error: MerchantError }) {
  const href = useEmbeddedHref();
  return (
    <Card>
      <EmptyState
        heading={error.title}
        image={CONNECT_ILLUSTRATION}
        action={{ content: error.action?.content ?? "Connect in Settings", url: href(error.action?.url ?? "/app/settings") }}
      >
        <p>{error.message}</p>
      </EmptyState>
    </Card>
  );
}

/** An empty list, inside a card, with a way forward. */
export function EmptyListState({
  heading,
  children,
  action,
}: {
  heading: string;
  children: ReactNode;
  action?: { content: string; url: string };
}) {
  return (
    <EmptyState heading={heading} image={EMPTY_LIST_ILLUSTRATION} action={action}>
      {children}
    </EmptyState>
  );
}
