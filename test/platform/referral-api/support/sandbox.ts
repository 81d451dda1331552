import { afterAll, beforeAll, beforeEach } from "vitest";
import { startSandbox } from "../../../../sandbox/server";
import type { ReferralClientOptions } from "../../../../app/platform/referral-api";
import { sandboxClient } from "../../../support/sandbox-client";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export interface FaultSettings {
  latencyMs?: number;
  errorRate?: number;
  failNext?: number;
  dropNext?: number;
  rateLimitNext?: number;
  authFailNext?: number;
  operations?: string[];
}

export interface Ledger {
  events: unknown[];
  commissions: unknown[];
  ambassadors: unknown[];
  requests: { operation: string; method: string; status: number }[];
  webhooks: unknown[];
}

/**
 * Starts one real sandbox for the test file (reset before each test) and
 * gives a client of it plus the control API.
 */
export function useSandbox(options: Parameters<typeof startSandbox>[0] = {}) {
  let sandbox: Sandbox | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, timeScale: 0.001, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(async () => {
    await control("POST", "/_sandbox/reset");
  });

  function sb(): Sandbox {
    if (!sandbox) throw new Error("sandbox not started");
    return sandbox;
  }

  async function control(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${sb().baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`sandbox control ${method} ${path}: HTTP ${response.status} ${await response.text()}`);
    const text = await response.text();
    return text ? JSON.parse(text) : undefined;
  }

  return {
    sb,
    client(overrides: Partial<ReferralClientOptions> = {}) {
      return sandboxClient(sb(), overrides);
    },
    faults: (settings: FaultSettings) => control("POST", "/_sandbox/faults", settings),
    clearFaults: () => control("DELETE", "/_sandbox/faults"),
    ledger: () => control("GET", "/_sandbox/ledger") as Promise<Ledger>,
    reset: () => control("POST", "/_sandbox/reset"),
    setCredentials: (username: string, token: string) => control("POST", "/_sandbox/credentials", { username, token }),
  };
}
