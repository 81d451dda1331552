// POS home screen tile: opens the referral modal. Off when the extension was
// built without the app's address (it could not check a code).
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { APP_URL } from "../../customer-account/src/app-url";

export default async () => {
  render(<ReferralTile />, document.body);
};

function ReferralTile() {
  return (
    <s-tile
      heading="Referral"
      subheading={APP_URL ? "Add a friend's referral code" : "Not set up"}
      disabled={!APP_URL}
      onClick={() => shopify.action.presentModal()}
    />
  );
}
