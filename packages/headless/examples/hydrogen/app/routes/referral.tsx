// app/routes/referral.tsx: the resource route the browser half of the kit
// posts a landing to (components/ReferralTracker.tsx). It writes the code to the
// visitor's cart with Hydrogen's cart handler, on the server, and applies the
// friend's offer code on arrival from a link whose campaign has a live offer.
import { applyReferralToCart, fetchOfferCampaigns, hydrogenCart, type Landing } from "@referral-bridge/headless";
import { data, type ActionFunctionArgs } from "react-router";
import { referralContext } from "../lib/referral-context";

export async function action({ request, context }: ActionFunctionArgs) {
  const { cart, env } = referralContext(context);
  let landing: Landing;
  try {
    landing = readLanding(await request.json());
  } catch {
    return data({ error: "The body must be the kit's landing ({ kept, arrived })." }, { status: 400 });
  }
  const offerCampaigns = landing.arrived ? await fetchOfferCampaigns({ appUrl: env.REFERRAL_BRIDGE_APP_URL, shop: env.PUBLIC_STORE_DOMAIN }) : [];
  const result = await applyReferralToCart(hydrogenCart(cart), landing, { offerCampaigns });
  // A cart made here is the visitor's from now on: its id goes into Hydrogen's cart cookie.
  const headers = result.created && result.cart ? cart.setCartId(result.cart.id) : new Headers();
  return data({ attributesWritten: result.attributesWritten, discountCodeApplied: result.discountCodeApplied }, { headers });
}

/** The browser sends it; it is checked like any outside input (the kit's cleanCode rules apply to the values). */
function readLanding(body: unknown): Landing {
  const { kept, arrived } = (body ?? {}) as Partial<Landing>;
  const text = (value: unknown) => (typeof value === "string" && value.length <= 100 && !/[<>"]/.test(value) ? value : null);
  const keptOk = kept && text(kept.code) && text(kept.campaign) !== null && typeof kept.expiresAt === "number" && kept.expiresAt > Date.now();
  const arrivedOk = arrived && text(arrived.code) && text(arrived.campaign) !== null;
  if (!keptOk && !arrivedOk) throw new Error("no landing");
  return { kept: keptOk ? kept : null, arrived: arrivedOk ? arrived : null };
}
