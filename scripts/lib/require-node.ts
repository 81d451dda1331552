// Imported first by every script: stops at once, saying what to do, on a
// Node older than package.json's engines allow (server.mjs checks the same).
import { existsSync, readFileSync } from "node:fs";

/** The project's package.json: the nearest above this module (scripts/lib/ in the source, build/ in a bundle). */
function projectPackage(): { engines: { node: string } } {
  for (let dir = new URL("./", import.meta.url); ; dir = new URL("../", dir)) {
    const file = new URL("package.json", dir);
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
    if (dir.pathname === "/") throw new Error("package.json was not found");
  }
}

const wanted = projectPackage().engines.node;
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const [wantMajor = 0, wantMinor = 0] = wanted.replace(/^>=\s*/, "").split(".").map(Number);
if (major < wantMajor || (major === wantMajor && minor < wantMinor)) {
  console.error(`Referral Bridge needs Node.js ${wanted}; this is ${process.version}. Install Node ${wantMajor} LTS (see .nvmrc), e.g. with nvm: nvm install ${wantMajor}`);
  process.exit(1);
}
