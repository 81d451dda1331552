// The app's public origin, fixed when the Shopify CLI bundles the extension:
// the CLI replaces `process.env.APP_URL` with a string, the tunnel's address
// under `shopify app dev`, and under `npm run deploy` the application_url of
// the configuration being deployed (scripts/deploy.ts sets it). Extensions have
// no environment at run time, so an unreplaced reference would throw there.
declare const process: { env: { APP_URL?: string } };

function bundledAppUrl(): string {
  try {
    return process.env.APP_URL ?? "";
  } catch {
    return "";
  }
}

/** "" when the bundle was built without APP_URL: the blocks then show their error state. */
export const APP_URL = bundledAppUrl();
