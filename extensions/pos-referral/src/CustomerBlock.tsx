// POS customer details block: the customer's own share link, or a button
// that enrols them as an ambassador.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { APP_URL } from "../../customer-account/src/app-url";
import { customerLinks, enrolCustomer, type AppCaller, type CustomerAnswer } from "./pos-api";

export default async () => {
  render(<CustomerReferrals />, document.body);
};

const caller: AppCaller = {
  appUrl: APP_URL,
  getToken: () => shopify.session.getSessionToken(),
  fetch: (url, init) => fetch(url, init),
};

function CustomerReferrals() {
  const customerId = shopify.customer.id;
  const [answer, setAnswer] = useState<CustomerAnswer | null>(null);
  const [enrolling, setEnrolling] = useState(false);

  useEffect(() => {
    let current = true;
    void customerLinks(caller, customerId).then((next) => current && setAnswer(next));
    return () => {
      current = false;
    };
  }, [customerId]);

  const enrol = async () => {
    setEnrolling(true);
    setAnswer(await enrolCustomer(caller, customerId));
    setEnrolling(false);
  };

  return (
    <s-pos-block heading="Referral program">
      <s-stack direction="block" gap="small" padding="base">
        <Body answer={answer} enrolling={enrolling} onEnrol={() => void enrol()} />
      </s-stack>
    </s-pos-block>
  );
}

function Body({ answer, enrolling, onEnrol }: { answer: CustomerAnswer | null; enrolling: boolean; onEnrol(): void }) {
  if (answer === null) return <s-spinner />;
  switch (answer.status) {
    case "ok": {
      const link = answer.links[0];
      if (!link) return <s-text>An ambassador, with no share link in the store's campaigns yet.</s-text>;
      return (
        <s-stack direction="block" gap="small">
          <s-text>Their share link ({link.campaignName}):</s-text>
          <s-text>{link.url}</s-text>
        </s-stack>
      );
    }
    case "not_enrolled":
      return answer.reason === "not_member" ? (
        <s-stack direction="block" gap="small">
          <s-text>Not an ambassador yet.</s-text>
          <s-button variant="primary" loading={enrolling} onClick={onEnrol}>
            Enrol as ambassador
          </s-button>
        </s-stack>
      ) : (
        <s-text>{answer.message}</s-text>
      );
    case "unavailable":
      return <s-text>The referral program isn't connected for this store.</s-text>;
    default:
      return <s-text>{answer.message ?? "The referral program can't be reached right now."}</s-text>;
  }
}
