import { describe, expect, it } from "vitest";
import { DEVELOPMENT_DEFAULTS, EnvError, parseEnv } from "../../app/wiring/env.server";

const KEY = Buffer.alloc(32, 7).toString("base64");
const production = {
  NODE_ENV: "production",
  SHOPIFY_API_KEY: "client-id",
  SHOPIFY_API_SECRET: "client-secret",
  SHOPIFY_APP_URL: "https://referrals.example.com",
  CREDENTIALS_KEY: KEY,
  DATABASE_URL: "postgresql://app@db.internal:5432/referrals",
};

function problemsOf(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
}

describe("parseEnv", () => {
  it("is production when NODE_ENV is not set: the development key and switches are refused, saying how to ask for development", () => {
    for (const NODE_ENV of [undefined, ""]) {
      const problems = problemsOf({ ...production, NODE_ENV, CREDENTIALS_KEY: DEVELOPMENT_DEFAULTS.CREDENTIALS_KEY, SHOPIFY_ADMIN_API_ORIGIN: "http://127.0.0.1:4020" });
      expect(problems).toEqual([
        "CREDENTIALS_KEY is the development key; production needs its own secret key",
        expect.stringMatching(/^SHOPIFY_ADMIN_API_ORIGIN is for development only/),
        "NODE_ENV is not set, so this is a production process; for development with its defaults, set NODE_ENV=development",
      ]);
      expect(parseEnv({ ...production, NODE_ENV }).NODE_ENV).toBe("production");
    }
    expect(problemsOf({})).toContain("SHOPIFY_API_KEY is missing; production needs a real value");
  });

  it("gives development safe defaults when asked for", () => {
    const env = parseEnv({ NODE_ENV: "development" });
    expect(env.NODE_ENV).toBe("development");
    expect(env.SHOPIFY_API_KEY).toBe(DEVELOPMENT_DEFAULTS.SHOPIFY_API_KEY);
    expect(env.DATABASE_URL).toBe("file:./data/referral-bridge.sqlite");
    expect(env.SCOPES).toContain("read_orders");
    expect(env.WORKER_IN_PROCESS).toBe(true);
  });

  it("accepts a complete production environment", () => {
    const env = parseEnv(production);
    expect(env.CREDENTIALS_KEY).toBe(KEY);
    expect(env.DATABASE_URL).toMatch(/^postgresql:/);
  });

  it("refuses to start production without the real values, naming each one", () => {
    const problems = problemsOf({ NODE_ENV: "production" });
    expect(problems).toEqual([
      "SHOPIFY_API_KEY is missing; production needs a real value",
      "SHOPIFY_API_SECRET is missing; production needs a real value",
      "SHOPIFY_APP_URL is missing; production needs a real value",
      "CREDENTIALS_KEY is missing; production needs a real value",
    ]);
  });

  it("refuses the development credentials key in production", () => {
    expect(problemsOf({ ...production, CREDENTIALS_KEY: DEVELOPMENT_DEFAULTS.CREDENTIALS_KEY })).toEqual([
      "CREDENTIALS_KEY is the development key; production needs its own secret key",
    ]);
  });

  it("refuses the development-only switches in production, each on its own line", () => {
    const problems = problemsOf({ ...production, ALLOW_LOOPBACK_SERVICE: "true", SHOPIFY_ADMIN_API_ORIGIN: "http://127.0.0.1:4020" });
    expect(problems).toEqual([
      "ALLOW_LOOPBACK_SERVICE is for development only (it lets the referral service be on this machine, over plain http); remove it from a production environment",
      "SHOPIFY_ADMIN_API_ORIGIN is for development only (it sends the Admin API calls to a stand-in instead of the shop); remove it from a production environment",
    ]);
    expect(() => parseEnv({ ...production, ALLOW_LOOPBACK_SERVICE: "1" })).toThrow(/^The environment is not valid:\n {2}- ALLOW_LOOPBACK_SERVICE is for development only/);
    // Among the other problems of a production environment, each keeps its own line.
    expect(problemsOf({ NODE_ENV: "production", SHOPIFY_ADMIN_API_ORIGIN: "not a url" })).toEqual([
      "SHOPIFY_API_KEY is missing; production needs a real value",
      "SHOPIFY_API_SECRET is missing; production needs a real value",
      "SHOPIFY_APP_URL is missing; production needs a real value",
      "CREDENTIALS_KEY is missing; production needs a real value",
      "SHOPIFY_ADMIN_API_ORIGIN is for development only (it sends the Admin API calls to a stand-in instead of the shop); remove it from a production environment",
    ]);
  });

  it("takes a development-only switch that is off in production, and either switch outside production", () => {
    expect(parseEnv({ ...production, ALLOW_LOOPBACK_SERVICE: "false", SHOPIFY_ADMIN_API_ORIGIN: "" }).ALLOW_LOOPBACK_SERVICE).toBe(false);
    for (const NODE_ENV of ["development", "test"]) {
      const env = parseEnv({ ...production, NODE_ENV, ALLOW_LOOPBACK_SERVICE: "true", SHOPIFY_ADMIN_API_ORIGIN: "http://127.0.0.1:4020" });
      expect([env.ALLOW_LOOPBACK_SERVICE, env.SHOPIFY_ADMIN_API_ORIGIN]).toEqual([true, "http://127.0.0.1:4020"]);
    }
  });

  it("gives each malformed variable its own message", () => {
    const problems = problemsOf({
      NODE_ENV: "development",
      SHOPIFY_APP_URL: "not a url",
      CREDENTIALS_KEY: "c2hvcnQ=",
      DATABASE_URL: "mysql://db/x",
      LOG_LEVEL: "loud",
      SCOPES: "read orders",
    });
    expect(problems).toHaveLength(5);
    expect(problems.find((p) => p.startsWith("SHOPIFY_APP_URL "))).toMatch(/public https URL/);
    expect(problems.find((p) => p.startsWith("CREDENTIALS_KEY "))).toMatch(/32 random bytes/);
    expect(problems.find((p) => p.startsWith("DATABASE_URL "))).toMatch(/file:.*postgresql/);
    expect(problems.find((p) => p.startsWith("LOG_LEVEL "))).toBeDefined();
    expect(problems.find((p) => p.startsWith("SCOPES "))).toMatch(/comma-separated/);
  });

  it("says all problems in one error message", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(/SHOPIFY_API_KEY is missing[\s\S]*CREDENTIALS_KEY is missing/);
  });
});
