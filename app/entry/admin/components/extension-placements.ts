import { useEffect, useState } from "react";
import { extensionPlacements, type ExtensionInfoLike, type ExtensionPlacements } from "../extension-status";

type AppBridgeApp = { extensions?: () => Promise<ExtensionInfoLike[]> };

/**
 * The placements App Bridge reports (shopify.app.extensions()), asked once
 * the page runs in the admin; null while it has not answered, and for good
 * where App Bridge or its App API is missing or fails (the page then keeps
 * what the server could tell).
 */
export function useExtensionPlacements(): ExtensionPlacements | null {
  const [placements, setPlacements] = useState<ExtensionPlacements | null>(null);
  useEffect(() => {
    const app = (window as { shopify?: { app?: AppBridgeApp } }).shopify?.app;
    if (typeof app?.extensions !== "function") return;
    let live = true;
    app
      .extensions()
      .then((infos) => {
        if (live && Array.isArray(infos)) setPlacements(extensionPlacements(infos));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return placements;
}
