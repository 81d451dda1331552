import pino from "pino";
import { redactServiceUrl } from "./referral-api/redact";

/** Keys whose values never reach a log line, wherever they sit in an object. */
const SECRET_KEYS = [
  "token",
  "serviceToken",
  "serviceTokenSealed",
  "accessToken",
  "refreshToken",
  "apiSecretKey",
  "secret",
  "password",
  "authorization",
  "apiKey",
  "api_key",
  "CREDENTIALS_KEY",
  "SHOPIFY_API_SECRET",
];

const SECRET_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

/** Token segments of referral-service URLs can hide inside any string. */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactServiceUrl(value);
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    return { type: value.name, message: redactServiceUrl(value.message), stack: value.stack && redactServiceUrl(value.stack) };
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, depth + 1)]));
}

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}) {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? "info",
      base: { app: "referral-bridge" },
      redact: { paths: SECRET_PATHS, censor: "[REDACTED]" },
      formatters: { log: (object) => scrub(object) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((a) => (typeof a === "string" ? redactServiceUrl(a) : a)) as Parameters<typeof method>,
          );
        },
      },
    },
    options.destination,
  );
}

export type Logger = pino.Logger;

export const logger = createLogger();
