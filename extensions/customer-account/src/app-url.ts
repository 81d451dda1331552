// The app's public origin: the application_url of shopify.app.toml. Extensions
// have no environment at run time, so set it here before `shopify app deploy`.
export const APP_URL = "https://localhost:3000";
