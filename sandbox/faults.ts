// Injected faults for v2 calls: latency, 5xx, dropped connections, 429s, 401s.

export interface FaultConfig {
  latencyMs?: number;
  /** 0..1: share of calls answered with HTTP 500. */
  errorRate?: number;
  /** The next N calls answer 503. */
  failNext?: number;
  /** The next N calls get their socket destroyed without an answer. */
  dropNext?: number;
  /** The next N calls answer 429. */
  rateLimitNext?: number;
  /** The next N calls answer 401. */
  authFailNext?: number;
  /** Only these operations (e.g. "event/record") are affected; absent = all. */
  operations?: string[];
}

export type FaultAction = "drop" | "fail" | "rateLimit" | "authFail" | "error";

export interface FaultDecision {
  latencyMs: number;
  action?: FaultAction;
}

const COUNTERS = ["dropNext", "failNext", "rateLimitNext", "authFailNext"] as const;
const ACTION_OF: Record<(typeof COUNTERS)[number], FaultAction> = {
  dropNext: "drop",
  failNext: "fail",
  rateLimitNext: "rateLimit",
  authFailNext: "authFail",
};

export class FaultConfigError extends Error {}

export function normaliseOperation(name: string): string {
  return name.replace(/^\/+|\/+$/g, "");
}

/** Checks a config received as JSON; throws FaultConfigError with a readable reason. */
export function parseFaultConfig(input: unknown): FaultConfig {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new FaultConfigError("The fault config must be a JSON object.");
  }
  const raw = input as Record<string, unknown>;
  const known = new Set(["latencyMs", "errorRate", ...COUNTERS, "operations"]);
  const unknown = Object.keys(raw).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new FaultConfigError(`Unknown fault settings: ${unknown.join(", ")}.`);
  const config: FaultConfig = {};
  for (const key of ["latencyMs", ...COUNTERS] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new FaultConfigError(`${key} must be a number of at least 0.`);
    }
    config[key] = key === "latencyMs" ? value : Math.floor(value);
  }
  if (raw.errorRate !== undefined) {
    if (typeof raw.errorRate !== "number" || raw.errorRate < 0 || raw.errorRate > 1) {
      throw new FaultConfigError("errorRate must be a number from 0 to 1.");
    }
    config.errorRate = raw.errorRate;
  }
  if (raw.operations !== undefined) {
    if (!Array.isArray(raw.operations) || raw.operations.some((o) => typeof o !== "string")) {
      throw new FaultConfigError("operations must be an array of operation names.");
    }
    config.operations = raw.operations.map((o: string) => normaliseOperation(o));
  }
  return config;
}

export class Faults {
  private config: FaultConfig = {};

  constructor(private readonly random: () => number = Math.random) {}

  set(config: FaultConfig): void {
    this.config = { ...config, operations: config.operations?.map(normaliseOperation) };
  }

  clear(): void {
    this.config = {};
  }

  current(): FaultConfig {
    return { ...this.config };
  }

  /** Decides (and counts down) the fault for one call; one fault per call at most. */
  decide(operation: string): FaultDecision {
    const c = this.config;
    if (c.operations && !c.operations.includes(normaliseOperation(operation))) return { latencyMs: 0 };
    const decision: FaultDecision = { latencyMs: c.latencyMs ?? 0 };
    for (const counter of COUNTERS) {
      const left = c[counter] ?? 0;
      if (left > 0) {
        c[counter] = left - 1;
        decision.action = ACTION_OF[counter];
        return decision;
      }
    }
    if ((c.errorRate ?? 0) > 0 && this.random() < c.errorRate!) decision.action = "error";
    return decision;
  }
}
