import { z } from "zod";
import { DEFAULT_DATABASE_URL, databaseKind } from "../platform/db/adapter.server";
import { DEFAULT_RECONCILE_INTERVAL_MS, DEFAULT_RECONCILE_OVERLAP_MS } from "../domains/order-sync/job-kinds";
import type { CredentialsKey } from "../platform/crypto/sealing.server";
import { DEFAULT_LEASE_MS, DEFAULT_SHOP_CONCURRENCY } from "../platform/queue/defaults";

/**
 * Development and the demo run with these; production refuses to start
 * without real values (see `parseEnv`).
 */
export const DEVELOPMENT_DEFAULTS = {
  SHOPIFY_API_KEY: "referral-bridge-dev-key",
  SHOPIFY_API_SECRET: "referral-bridge-dev-secret",
  SHOPIFY_APP_URL: "http://localhost:3000",
  // 32 bytes of plain text, base64. Only ever accepted outside production.
  CREDENTIALS_KEY: "ZGV2ZWxvcG1lbnQta2V5LW5vdC1mb3ItcHJvZC11c2U=",
} as const;

export const DEFAULT_SCOPES =
  "read_orders,read_customers,write_app_proxy,write_discounts,read_themes,write_pixels,read_customer_events";

const base64Key = z
  .string()
  .refine((v) => Buffer.from(v, "base64").length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(v), {
    message: "must be 32 random bytes in base64 (create one with: openssl rand -base64 32)",
  });

const schema = z.object({
  /** Production unless development (or test) is asked for explicitly: a host that forgets it gets production's checks. */
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  SHOPIFY_API_KEY: z.string().min(1, "must be the app's client id from the Partner Dashboard"),
  SHOPIFY_API_SECRET: z.string().min(1, "must be the app's client secret from the Partner Dashboard"),
  SHOPIFY_APP_URL: z.url({ message: "must be the public https URL the app is served on" }),
  SCOPES: z
    .string()
    .regex(/^[a-z_]+(,[a-z_]+)*$/, "must be a comma-separated list of access scopes, e.g. read_orders,read_customers")
    .default(DEFAULT_SCOPES),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
  DATABASE_URL: z
    .string()
    .default(DEFAULT_DATABASE_URL)
    .refine(
      (v) => {
        try {
          databaseKind(v);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must start with "file:" (SQLite) or "postgresql://" (PostgreSQL)' },
    ),
  CREDENTIALS_KEY: base64Key,
  /**
   * During a key rotation (docs/operations.md): the key or keys, comma-separated, that values were sealed
   * with before CREDENTIALS_KEY. Read only, never sealed with; removed once `npm run credentials:reseal` has run.
   */
  CREDENTIALS_KEY_PREVIOUS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((key) => key.trim()).filter(Boolean))
    .pipe(z.array(base64Key).max(4, "holds at most 4 keys")),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Jobs one worker runs side by side; most wait on the referral service, so many fit in one process. */
  // Unset: DEFAULT_WORKER_CONCURRENCY, a worker process's or the app's own thread's.
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  /** Jobs of one shop running at once across every worker: the share of one service account, and what keeps one shop's backlog from taking every worker. */
  SHOP_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(DEFAULT_SHOP_CONCURRENCY),
  /** First retry delay of a failed job; later ones double (see app/platform/queue/backoff.ts). */
  JOB_RETRY_BASE_MS: z.coerce.number().int().min(10).default(60_000),
  /** How long a job's worker may be silent before another worker takes the job (a running job renews it every third of this). */
  JOB_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(DEFAULT_LEASE_MS),
  /** How long a call to the referral service may take, answer included, before it counts as failed (and is retried). */
  SERVICE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** How long a stopping process (SIGTERM) waits for the webhooks and service calls under way. */
  SHUTDOWN_DEADLINE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  /** How often each shop's orders are read back from Shopify to find what webhooks missed (app/domains/order-sync). */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(DEFAULT_RECONCILE_INTERVAL_MS),
  /** How far before its watermark a reconciliation pass starts reading, for orders Shopify's search shows late. */
  RECONCILE_OVERLAP_MS: z.coerce.number().int().min(0).max(86_400_000).default(DEFAULT_RECONCILE_OVERLAP_MS),
  /**
   * Development only: the Admin GraphQL API is called at this origin (the local stand-in,
   * test/support/shopify-admin-standin.ts) instead of https://<shop>. Tests and the fault run set it;
   * with NODE_ENV=production the app refuses to start.
   */
  SHOPIFY_ADMIN_API_ORIGIN: z.url().optional(),
  /**
   * Development only: a headless storefront's customer token is checked with the Customer Account API
   * found at this origin (the local stand-in, test/support/customer-account-standin.ts) instead of
   * https://<shop>. With NODE_ENV=production the app refuses to start.
   */
  SHOPIFY_CUSTOMER_ACCOUNT_API_ORIGIN: z.url().optional(),
  /**
   * Where merchants reach the app's support: an email address or an https page. Shown in the
   * admin's footer and in its error pages; without it, support@ the app's own host.
   */
  SUPPORT_CONTACT: z
    .string()
    .trim()
    .refine((v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) || /^https:\/\/[^\s]+$/.test(v), { message: "must be an email address or an https:// URL" })
    .optional(),
  /**
   * The app's Shopify App Store listing. In production a visit without a shop (the app's own address
   * typed in) is sent there; without it, the page explains how to open the app from the Shopify admin.
   */
  APP_LISTING_URL: z.url({ message: "must be the https URL of the app's App Store listing" }).optional(),
  /** The web pixel's endpoint (/api/pixel): signals a minute from one client address (IPv6: its /64) for one shop, in each app process; ten times that across shops. */
  PIXEL_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(60),
  /** Behind a load balancer, how many proxies add to X-Forwarded-For: the pixel's limits count the client's address, not the proxy's. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  WORKER_IN_PROCESS: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  /**
   * Development only: lets the referral service be on this machine (127.0.0.0/8, ::1), over http too.
   * Tests, the demo and the sandbox scripts set it; with NODE_ENV=production the app refuses to start.
   */
  ALLOW_LOOPBACK_SERVICE: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
});

export type Env = z.infer<typeof schema>;

/** The keys the process seals and opens stored secrets with: CREDENTIALS_KEY, and during a rotation the previous ones for reading. */
export function credentialsKeys(env: Pick<Env, "CREDENTIALS_KEY" | "CREDENTIALS_KEY_PREVIOUS">): CredentialsKey {
  const previous = env.CREDENTIALS_KEY_PREVIOUS.filter((key) => key !== env.CREDENTIALS_KEY);
  return previous.length === 0 ? env.CREDENTIALS_KEY : { current: env.CREDENTIALS_KEY, previous };
}

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`The environment is not valid:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

const REQUIRED_IN_PRODUCTION = ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "CREDENTIALS_KEY"] as const;

/**
 * Switches that point the app at this machine instead of the real services.
 * A production process refuses to start with one of them turned on; the
 * scripts and tests that need one run a development process.
 */
export const DEVELOPMENT_ONLY_SWITCHES = {
  ALLOW_LOOPBACK_SERVICE: "it lets the referral service be on this machine, over plain http",
  SHOPIFY_ADMIN_API_ORIGIN: "it sends the Admin API calls to a stand-in instead of the shop",
  SHOPIFY_CUSTOMER_ACCOUNT_API_ORIGIN: "it asks a stand-in instead of the shop whose a customer's token is",
} as const;

/** Whether a development-only switch is turned on in an environment ("false" or "0" leaves it off). */
export function switchedOn(source: Record<string, string | undefined>, name: keyof typeof DEVELOPMENT_ONLY_SWITCHES): boolean {
  const value = source[name]?.trim();
  return !!value && value !== "false" && value !== "0";
}

/** Checks a whole environment at once and reports every problem, one line each. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const unset = !source.NODE_ENV?.trim();
  const production = unset || source.NODE_ENV === "production";
  const input: Record<string, string | undefined> = { ...source, NODE_ENV: unset ? "production" : source.NODE_ENV };
  const problems: string[] = [];
  for (const name of REQUIRED_IN_PRODUCTION) {
    if (input[name]) continue;
    if (production) problems.push(`${name} is missing; production needs a real value`);
    else input[name] = DEVELOPMENT_DEFAULTS[name];
  }
  if (production && input.CREDENTIALS_KEY === DEVELOPMENT_DEFAULTS.CREDENTIALS_KEY) {
    problems.push("CREDENTIALS_KEY is the development key; production needs its own secret key");
  }
  if (production) {
    for (const [name, why] of Object.entries(DEVELOPMENT_ONLY_SWITCHES)) {
      if (switchedOn(input, name as keyof typeof DEVELOPMENT_ONLY_SWITCHES)) problems.push(`${name} is for development only (${why}); remove it from a production environment`);
    }
  }
  for (const [key, value] of Object.entries(input)) if (value === "") delete input[key];
  const result = schema.safeParse(input);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = issue.path.join(".");
      if (!problems.some((p) => p.startsWith(`${name} `))) problems.push(`${name} ${issue.message}`);
    }
  }
  if (problems.length > 0) {
    if (unset && production) problems.push("NODE_ENV is not set, so this is a production process; for development with its defaults, set NODE_ENV=development");
    throw new EnvError(problems);
  }
  return result.data!;
}

let cached: Env | undefined;

/**
 * Whether a visit without a shop may ask for a shop domain (the library's login form): only in
 * development (`shopify app dev`, the demo); Shopify's review refuses an app that asks merchants
 * for their myshopify domain, so production never does.
 */
export function asksForShopDomain(env: Env = getEnv()): boolean {
  return env.NODE_ENV !== "production";
}

/** Which addresses this process may call the referral service at. */
export function serviceNetwork(env: Env = getEnv()): { allowLoopback: boolean } {
  return { allowLoopback: env.ALLOW_LOOPBACK_SERVICE };
}

/** The checked environment of this process (checked once, at first use during boot). */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
