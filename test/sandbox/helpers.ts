import { startSandbox, type SandboxHandle, type SandboxOptions } from "../../sandbox/server";

/** Parsed JSON of a response; tests assert on its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** Operations whose documented method is POST; the others are GET. */
const POST_OPERATIONS = new Set([
  "event/record",
  "event/multi_record",
  "ambassador/update",
  "balance/add",
  "balance/deduct",
  "group/get",
  "commission/all",
  "commission/add",
  "compliance/remove",
  "compliance/export",
]);

export interface CallResult<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestSandbox {
  sandbox: SandboxHandle;
  v2Url(operation: string): string;
  /** Calls a v2 operation with its documented method (GET: query, POST: form body). */
  call<T = Json>(operation: string, params?: Record<string, string | number>, method?: "GET" | "POST"): Promise<CallResult<T>>;
  control<T = Json>(path: string, method?: string, body?: unknown): Promise<CallResult<T>>;
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({ port: 0, quiet: true, timeScale: 0.001, ...options });
  const v2Url = (operation: string) => `${sandbox.baseUrl}/api/v2/${sandbox.username}/${sandbox.token}/json/${operation}/`;
  return {
    sandbox,
    v2Url,
    async call(operation, params = {}, method) {
      const verb = method ?? (POST_OPERATIONS.has(operation) ? "POST" : "GET");
      const form = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
      const response =
        verb === "GET"
          ? await fetch(`${v2Url(operation)}?${form}`)
          : await fetch(v2Url(operation), { method: "POST", body: form });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    },
    async control(path, method = "GET", body) {
      const response = await fetch(`${sandbox.baseUrl}/_sandbox${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json(), headers: response.headers };
    },
  };
}

export const OK = "OK: The request was successful.";
export const BAD_REQUEST = "BAD REQUEST: The parameters provided were invalid.";

export function errorsOf(body: Json): string[] {
  return body?.response?.errors?.error ?? [];
}

export function dataOf(body: Json): Json {
  return body?.response?.data;
}

export async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("waitFor: condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
