// `npm run credentials:reseal`: the second step of a CREDENTIALS_KEY rotation
// (docs/operations.md). Run with the app's environment, CREDENTIALS_KEY the
// new key and CREDENTIALS_KEY_PREVIOUS the old one: every stored secret still
// sealed with the old key is sealed with the new one. Safe to run again, and
// beside the running app. Exits 2 when a value opens with no key, naming where.
import "./lib/require-node";
import { createPrismaClient } from "../app/wiring/db.server";
import { credentialsKeys, getEnv } from "../app/wiring/env.server";
import { resealWithCurrentKey } from "../app/platform/crypto/rotate.server";

let env;
try {
  env = getEnv();
} catch (error) {
  if ((error as Error).name !== "EnvError") throw error;
  console.error((error as Error).message);
  process.exit(1);
}
const db = createPrismaClient(env.DATABASE_URL);
try {
  const { resealed, current, unreadable } = await resealWithCurrentKey(db, credentialsKeys(env));
  console.log(`Sealed again with CREDENTIALS_KEY: ${resealed}. Already sealed with it: ${current}. Opened by no key: ${unreadable.length}.`);
  if (unreadable.length > 0) {
    for (const place of unreadable) console.log(`  ${place.column} of ${place.shop}${place.id ? ` (row ${place.id})` : ""}`);
    console.log("Keep CREDENTIALS_KEY_PREVIOUS until these are understood: docs/operations.md, \"Rotating CREDENTIALS_KEY\".");
    process.exitCode = 2;
  } else if (env.CREDENTIALS_KEY_PREVIOUS.length > 0) {
    console.log("Every stored secret is sealed with CREDENTIALS_KEY: CREDENTIALS_KEY_PREVIOUS can be removed.");
  }
} finally {
  await db.$disconnect();
}
