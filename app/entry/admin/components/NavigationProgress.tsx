import { useNavigation } from "@remix-run/react";
import { useEffect } from "react";

declare global {
  interface Window {
    shopify?: { loading?: (on: boolean) => void };
  }
}

/**
 * Shows that a page is loading: App Bridge's loading bar in the admin, and a
 * bar at the top of the frame (for screen readers too) wherever the app runs.
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  useEffect(() => {
    window.shopify?.loading?.(busy);
  }, [busy]);
  if (!busy) return null;
  return (
    <div
      className="rb-progress"
      role="progressbar"
      aria-label={navigation.state === "submitting" ? "Saving" : "Loading page"}
      aria-busy="true"
    >
      <div className="rb-progress__bar" />
    </div>
  );
}
