import type { FetchLike } from "../../../../app/platform/referral-api";

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | FormData | null;
}

type Answer = Response | ((call: RecordedCall) => Response | Promise<Response>);

/** A fetch that records each call and answers from a list (the last answer repeats). */
export function fakeFetch(...answers: Answer[]) {
  const calls: RecordedCall[] = [];
  const fetch: FetchLike = async (input, init) => {
    const call: RecordedCall = {
      url: String(input),
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: init.body instanceof FormData ? init.body : init.body == null ? null : String(init.body),
    };
    calls.push(call);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    return typeof answer === "function" ? answer(call) : answer.clone();
  };
  return { fetch, calls };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

export function ok(data: unknown): Response {
  return json({ response: { code: "200", message: "OK: The request was successful.", data } });
}

export function badRequest(errors: string[], status = 400): Response {
  return json(
    { response: { code: "400", message: "BAD REQUEST: The parameters provided were invalid.", errors: { error: errors } } },
    status,
  );
}

export function recordingLogger() {
  const lines: { level: "debug" | "warn"; obj: object; msg?: string }[] = [];
  return {
    lines,
    logger: {
      debug: (obj: object, msg?: string) => lines.push({ level: "debug", obj, msg }),
      warn: (obj: object, msg?: string) => lines.push({ level: "warn", obj, msg }),
    },
  };
}
