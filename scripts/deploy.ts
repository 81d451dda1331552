// npm run deploy -- --config <name> [--dry-run]
//
// Releases the app's configuration and extensions with
// `shopify app deploy --config <name>`, after checking
// shopify.app.<name>.toml (scripts/lib/app-config.ts). The UI extensions are
// bundled with APP_URL set to that file's application_url: the only place the
// app's address is written.
//
// --dry-run does the same checks, then `shopify app build --config <name>`
// (offline), and reads the bundles of the extensions that call the app: each
// must hold the address and none may hold localhost. CI runs it.
import "./lib/require-node";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { extensionAppUrl, parseAppToml, productionConfigProblems } from "./lib/app-config";

const { values } = parseArgs({ options: { config: { type: "string" }, "dry-run": { type: "boolean", default: false } } });
const name = values.config;
if (!name) {
  console.error("Usage: npm run deploy -- --config <name>   (for shopify.app.<name>.toml; see docs/setup.md, step 6: Deploy)");
  process.exit(2);
}
const file = `shopify.app.${name}.toml`;
if (!existsSync(file)) {
  console.error(`${file} does not exist. Create it with \`npx shopify app config link\` (docs/setup.md, step 6: Deploy).`);
  process.exit(2);
}

const production = parseAppToml(readFileSync(file, "utf8"));
const problems = productionConfigProblems(production, parseAppToml(readFileSync("shopify.app.toml", "utf8")));
if (problems.length > 0) {
  console.error(`${file} cannot be deployed:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
  process.exit(1);
}
const appUrl = extensionAppUrl(production);
console.log(`${file}: the app at ${appUrl}`);

const env = { ...process.env, APP_URL: appUrl, ...(values["dry-run"] ? { SHOPIFY_CLI_NO_ANALYTICS: "1", CI: "1" } : {}) };
const command = values["dry-run"] ? ["shopify", "app", "build", "--config", name] : ["shopify", "app", "deploy", "--config", name];
console.log(`$ APP_URL=${appUrl} npx ${command.join(" ")}`);
const result = spawnSync("npx", command, { env, stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);

if (values["dry-run"]) {
  // The extensions whose code reads APP_URL (through app-url.ts), found from their sources.
  const callers = readdirSync("extensions").filter((extension) => {
    const src = join("extensions", extension, "src");
    return existsSync(src) && readdirSync(src).some((source) => /app-url/.test(readFileSync(join(src, source), "utf8")));
  });
  const wrong: string[] = [];
  for (const extension of callers) {
    const dist = join("extensions", extension, "dist");
    const bundles = readdirSync(dist).filter((entry) => entry.endsWith(".js"));
    for (const bundle of bundles) {
      const code = readFileSync(join(dist, bundle), "utf8");
      if (!code.includes(JSON.stringify(appUrl))) wrong.push(`${extension}/dist/${bundle} does not hold ${appUrl}`);
      if (/localhost|127\.0\.0\.1/.test(code)) wrong.push(`${extension}/dist/${bundle} holds a local address`);
    }
    if (bundles.length === 0) wrong.push(`${extension} built no bundle`);
  }
  if (callers.length === 0) wrong.push("no extension reads app-url.ts");
  if (wrong.length > 0) {
    console.error(wrong.join("\n"));
    process.exit(1);
  }
  console.log(`The bundles of ${callers.join(", ")} call ${appUrl}.`);
}
