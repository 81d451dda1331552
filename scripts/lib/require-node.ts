// Imported first by every script: stops at once, saying what to do, on a
// Node older than package.json's engines allow (server.mjs checks the same).
import { readFileSync } from "node:fs";

const wanted: string = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).engines.node;
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const [wantMajor = 0, wantMinor = 0] = wanted.replace(/^>=\s*/, "").split(".").map(Number);
if (major < wantMajor || (major === wantMajor && minor < wantMinor)) {
  console.error(`Referral Bridge needs Node.js ${wanted}; this is ${process.version}. Install Node 22 (see .nvmrc), e.g. with nvm: nvm install 22`);
  process.exit(1);
}
