// Put <ReferralTracker /> in app/root.tsx's layout, inside Hydrogen's
// <Analytics.Provider consent={...}> (which loads the Customer Privacy API and
// its banner). On each page view it reads the landing URL; once the visitor
// allows analytics and marketing, it keeps the code and posts the landing to
// routes/referral.tsx, which writes it to the cart.
import { trackReferral, type TrackingSettings } from "@referral-bridge/headless";
import { useEffect } from "react";
import { useLocation } from "react-router";

export function ReferralTracker({ settings }: { settings?: Partial<TrackingSettings> }) {
  const location = useLocation();
  useEffect(
    () =>
      trackReferral({
        window,
        settings,
        apply: (landing) => fetch("/referral", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(landing) }),
      }),
    // Every client-side navigation is a page view, as a full page load is for the theme embed.
    [location.key, settings],
  );
  return null;
}
