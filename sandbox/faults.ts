// Injected faults for v2 calls: latency, 5xx, dropped connections, 429s,
// 401s, calls slower than a client waits, and answers cut after the call was
// carried out.

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
  /** 0..1: share of calls whose socket is destroyed before anything is done. */
  dropRate?: number;
  /** 0..1: share of calls answered 429. */
  rateLimitRate?: number;
  /** 0..1: share of calls held `slowMs` (default 5 s) before they are carried out and answered. */
  slowRate?: number;
  slowMs?: number;
  /** 0..1: share of calls carried out, whose socket is then destroyed instead of answered. */
  cutAfterActRate?: number;
  /** Only these operations (e.g. "event/record") are affected; absent = all. */
  operations?: string[];
}

export type FaultAction = "drop" | "fail" | "rateLimit" | "authFail" | "error" | "cutAfterAct";

export interface FaultDecision {
  latencyMs: number;
  action?: FaultAction;
}

const COUNTERS = ["dropNext", "failNext", "rateLimitNext", "authFailNext"] as const;
/** The shares of calls given a fault, drawn in this order; at most one per call. */
const RATES = ["errorRate", "dropRate", "rateLimitRate", "slowRate", "cutAfterActRate"] as const;
const ACTION_OF_RATE: Record<(typeof RATES)[number], FaultAction | "slow"> = {
  errorRate: "error",
  dropRate: "drop",
  rateLimitRate: "rateLimit",
  slowRate: "slow",
  cutAfterActRate: "cutAfterAct",
};
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
  const known = new Set(["latencyMs", "slowMs", ...RATES, ...COUNTERS, "operations"]);
  const unknown = Object.keys(raw).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new FaultConfigError(`Unknown fault settings: ${unknown.join(", ")}.`);
  const config: FaultConfig = {};
  for (const key of ["latencyMs", "slowMs", ...COUNTERS] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new FaultConfigError(`${key} must be a number of at least 0.`);
    }
    config[key] = key === "latencyMs" || key === "slowMs" ? value : Math.floor(value);
  }
  for (const key of RATES) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value >= 0 && value <= 1)) throw new FaultConfigError(`${key} must be a number from 0 to 1.`);
    config[key] = value;
  }
  const total = RATES.reduce((sum, key) => sum + (config[key] ?? 0), 0);
  if (total > 1) throw new FaultConfigError("The fault rates add up to more than 1.");
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
  private gate: { opened: Promise<void>; open: () => void } | null = null;

  constructor(private readonly random: () => number = Math.random) {}

  /**
   * Holds every call from now until the returned function is called (or the
   * faults are cleared): "while the service has not answered" as a state a
   * test can rely on, instead of a latency it races against.
   */
  hold(): () => void {
    if (!this.gate) {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      this.gate = { opened, open };
    }
    const gate = this.gate;
    return () => {
      gate.open();
      if (this.gate === gate) this.gate = null;
    };
  }

  /** Resolves when no hold is on. */
  async passGate(): Promise<void> {
    while (this.gate) await this.gate.opened;
  }

  set(config: FaultConfig): void {
    this.config = { ...config, operations: config.operations?.map(normaliseOperation) };
  }

  clear(): void {
    this.config = {};
    this.gate?.open();
    this.gate = null;
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
    const draw = this.random();
    let below = 0;
    for (const key of RATES) {
      const rate = c[key] ?? 0;
      if (rate <= 0) continue;
      below += rate;
      if (draw >= below) continue;
      const action = ACTION_OF_RATE[key];
      if (action === "slow") decision.latencyMs += c.slowMs ?? 5_000;
      else decision.action = action;
      break;
    }
    return decision;
  }
}
