// customer-account.order-status.block.render: the buyer's share link on the order status page.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { ShareLinkBlock } from "./ShareLinkBlock";

export default async () => {
  render(
    <ShareLinkBlock
      host={{
        getToken: () => shopify.sessionToken.get(),
        settings: () => shopify.settings.value,
        storefrontUrl: shopify.shop.storefrontUrl,
        t: (key, replacements) => shopify.i18n.translate(key, replacements),
      }}
    />,
    document.body,
  );
};
