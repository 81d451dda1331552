// purchase.thank-you.block.render: the buyer's share link right after the purchase.
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
