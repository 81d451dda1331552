// CLI entry: `npm run sandbox` (tsx sandbox/main.ts).
import "../scripts/lib/require-node";
import { startSandbox } from "./server";
import { SEED } from "./seed";

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`${name} must be a non-negative number, got "${raw}".`);
    process.exit(2);
  }
  return value;
}

const sandbox = await startSandbox({
  port: numberFromEnv("SANDBOX_PORT", 4010),
  username: process.env.SANDBOX_USERNAME || SEED.credentials.username,
  token: process.env.SANDBOX_TOKEN || SEED.credentials.token,
  timeScale: numberFromEnv("SANDBOX_TIME_SCALE", 1),
});

const v2 = `${sandbox.baseUrl}/api/v2/${sandbox.username}/${sandbox.token}/json`;
console.log(`Referral sandbox listening on ${sandbox.baseUrl}
  v2 interface     ${v2}/<operation>/
  username / token ${sandbox.username} / ${sandbox.token}
  token-header API ${sandbox.tokenApiUrl}/  (Authorization: Token ${SEED.credentials.apiKey}; password ${SEED.credentials.password})
  control API      ${sandbox.baseUrl}/_sandbox/  (faults, ledger, reset, webhooks, payouts, credentials)
Try:
  curl -s "${v2}/ambassador/get/?email=${SEED.ambassadors.alice.email}"
  curl -s -X POST "${v2}/event/record/" -d email=new.customer@example.com -d campaign_uid=1001 -d short_code=ALICE10 -d revenue=49.90 -d transaction_uid=order-1`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the sandbox.`);
  await sandbox.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
