// POS home modal: staff enter an ambassador's code or the referrer's email,
// or scan a QR code of a share link; the app checks it (never the device),
// and "Add to sale" puts the code on the cart and applies the friend's offer.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { APP_URL } from "../../customer-account/src/app-url";
import { applyToCart, checkCode, findCustomerReferrer, referrerName, type AppCaller, type CodeAnswer } from "./pos-api";

export default async () => {
  render(<ReferralModal />, document.body);
};

const caller: AppCaller = {
  appUrl: APP_URL,
  getToken: () => shopify.session.getSessionToken(),
  fetch: (url, init) => fetch(url, init),
};

/** The id of the customer on the cart, following the cart; undefined for a guest sale. */
function useCartCustomer(): number | undefined {
  const [id, setId] = useState(() => shopify.cart.current.value.customer?.id);
  useEffect(() => shopify.cart.current.subscribe((cart) => setId(cart.customer?.id)), []);
  return id;
}

const FAILED_HEADING = {
  unknown: "Not a referral code",
  invalid: "Not a referral code",
  unavailable: "Referral program not connected",
  error: "Try again",
} as const;

type Step = { kind: "entering" } | { kind: "checking" } | { kind: "checked"; answer: CodeAnswer } | { kind: "added"; text: string };

function ReferralModal() {
  const [input, setInput] = useState("");
  const [step, setStep] = useState<Step>({ kind: "entering" });

  const check = async (value: string) => {
    if (!value.trim()) return;
    setStep({ kind: "checking" });
    setStep({ kind: "checked", answer: await checkCode(caller, value) });
  };
  const cartCustomer = useCartCustomer();
  const findReferrer = async (customerId: number) => {
    setStep({ kind: "checking" });
    setStep({ kind: "checked", answer: await findCustomerReferrer(caller, customerId) });
  };

  // A scan (camera or a connected scanner) is checked at once.
  useEffect(
    () =>
      shopify.scanner.scannerData.current.subscribe((scan) => {
        if (!scan.data) return;
        setInput(scan.data);
        void check(scan.data);
      }),
    [],
  );

  const add = async (answer: Extract<CodeAnswer, { status: "ok" }>) => {
    const { offerApplied } = await applyToCart(shopify.cart, answer);
    const text = `Referral code ${answer.code} added to the sale${offerApplied ? `, with the friend's offer ${answer.offerCode}` : ""}.`;
    shopify.toast.show(text);
    setStep({ kind: "added", text });
  };

  const answer = step.kind === "checked" ? step.answer : null;
  return (
    <s-page heading="Referral">
      <s-scroll-box>
        <s-stack direction="block" gap="base" padding="base">
          <s-text>Ask the customer for their friend's referral code, or scan the QR code of the friend's share link.</s-text>
          <s-text-field
            label="Referral code, share link or referrer's email"
            value={input}
            onInput={(event) => setInput(event.currentTarget.value ?? "")}
          />
          <s-stack direction="inline" gap="base">
            <s-button variant="primary" disabled={!input.trim()} loading={step.kind === "checking"} onClick={() => void check(input)}>
              Check code
            </s-button>
            <s-button variant="secondary" onClick={() => shopify.scanner.showCameraScanner()}>
              Scan QR code
            </s-button>
            {cartCustomer ? (
              <s-button variant="secondary" onClick={() => void findReferrer(cartCustomer)}>
                Find this customer's referrer
              </s-button>
            ) : null}
          </s-stack>
          {answer?.status === "ok" ? (
            <s-banner heading={`Referred by ${referrerName(answer.referrer)}`} tone="success">
              <s-stack direction="block" gap="small">
                <s-text>
                  Code {answer.code}
                  {answer.campaignName ? ` (${answer.campaignName})` : ""}
                  {answer.offerCode ? `. The friend's offer ${answer.offerCode} will be applied.` : "."}
                </s-text>
                <s-button variant="primary" onClick={() => void add(answer)}>
                  Add to sale
                </s-button>
              </s-stack>
            </s-banner>
          ) : null}
          {answer && answer.status !== "ok" ? (
            <s-banner heading={FAILED_HEADING[answer.status]} tone={answer.status === "error" ? "warning" : "critical"}>
              <s-text>{answer.message}</s-text>
            </s-banner>
          ) : null}
          {step.kind === "added" ? (
            <s-banner heading="Added" tone="success">
              <s-text>{step.text}</s-text>
            </s-banner>
          ) : null}
        </s-stack>
      </s-scroll-box>
    </s-page>
  );
}
