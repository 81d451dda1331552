// Renders a target of the POS UI extension (extensions/pos-referral) in a
// plain page: its entry bundled as the CLI bundles it (bundleBlock, APP_URL
// fixed at build time), a stand-in of the `shopify` global POS gives it (the
// session token handed in by the test, a cart that records what the
// extension writes, the scanner, toasts), and look-alikes of the POS
// components drawn with CSS so a screenshot shows what staff would read.

import { extensionPage } from "./ui-block-page";

const POS_STYLES = `
  body { margin: 0; font-family: system-ui, "Noto Sans", sans-serif; color: #1f2a37; background: #e8e8ea; }
  s-page { display: block; max-width: 640px; min-height: 100vh; margin: 0 auto; background: #f6f6f7; }
  s-page::before { content: attr(heading); display: block; padding: 16px 20px; background: #1f2a37; color: #fff; font-size: 1.2em; font-weight: 600; }
  s-pos-block { display: block; max-width: 640px; margin: 16px auto; background: #fff; border-radius: 12px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  s-pos-block::before { content: attr(heading); display: block; padding: 14px 16px 0; font-weight: 600; }
  s-scroll-box { display: block; }
  s-stack { display: flex; flex-direction: column; gap: 12px; }
  s-stack[padding="base"] { padding: 16px 20px; }
  s-stack[direction="inline"] { flex-direction: row; flex-wrap: wrap; gap: 12px; }
  s-text { display: block; }
  s-text-field { display: block; }
  s-text-field::before { content: attr(label); display: block; margin-bottom: 4px; font-size: .85em; color: #4b5563; }
  s-text-field::after { content: attr(value) "\\200b"; display: block; padding: 12px; border: 1px solid #c4c4c8; border-radius: 10px; background: #fff; font-size: 1.1em; }
  s-button { display: inline-block; padding: 12px 18px; border-radius: 10px; background: #fff; border: 1px solid #c4c4c8; font-weight: 600; cursor: pointer; }
  s-button[variant="primary"] { background: #1f2a37; color: #fff; border-color: #1f2a37; }
  s-button[disabled] { opacity: .45; }
  s-banner { display: block; padding: 14px 16px; border-radius: 10px; border: 1px solid; }
  s-banner::before { content: attr(heading); display: block; margin-bottom: 6px; font-weight: 600; }
  s-banner[tone="success"] { background: #e6f4ea; border-color: #7bc48f; }
  s-banner[tone="critical"] { background: #fdecea; border-color: #e49a92; }
  s-banner[tone="warning"] { background: #fff6e0; border-color: #e6c26b; }
  s-tile { display: inline-block; width: 220px; padding: 18px; border-radius: 12px; background: #fff; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  s-tile::before { content: attr(heading); display: block; font-weight: 600; }
  s-tile::after { content: attr(subheading); display: block; color: #6b7280; }
  s-spinner::before { content: "…"; }
`;

export interface PosPageOptions {
  /** The bundle's URL, on the page's origin. */
  bundleUrl: string;
  /** The POS session token the stand-in hands out (the test signs it). */
  token: string;
  /** The customer of the customer-details target. */
  customerId?: number;
  /** The customer on the cart; none for a guest sale. */
  cartCustomerId?: number;
}

/** The page: the `shopify` stand-in, then the bundle's default export called as POS calls it. */
export function posPage(options: PosPageOptions): string {
  const standin = `
    const scanListeners = new Set();
    window.posWrites = { cartProperties: {}, discountCodes: [], toasts: [], modalsPresented: 0 };
    window.posScan = (data) => { for (const listener of scanListeners) listener({ data, source: "camera" }); };
    window.shopify = {
      session: { getSessionToken: async () => ${JSON.stringify(options.token)} },
      scanner: {
        scannerData: { current: { value: {}, subscribe(listener) { scanListeners.add(listener); return () => scanListeners.delete(listener); } } },
        showCameraScanner() {},
        hideCameraScanner() {},
      },
      cart: {
        current: { value: ${JSON.stringify(options.cartCustomerId ? { customer: { id: options.cartCustomerId } } : {})}, subscribe() { return () => {}; } },
        async addCartProperties(properties) { Object.assign(posWrites.cartProperties, properties); },
        async addCartCodeDiscount(code) { posWrites.discountCodes.push(code); },
      },
      customer: { id: ${JSON.stringify(options.customerId ?? 0)} },
      toast: { show(text) { posWrites.toasts.push(text); } },
      action: { presentModal() { posWrites.modalsPresented++; } },
    };`;
  return extensionPage({ language: "en", title: "POS", styles: POS_STYLES, standin, bundleUrl: options.bundleUrl });
}
