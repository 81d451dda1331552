import { readFields } from "../field-reader";
import type { Extra } from "../types";

export interface MessageResult {
  message: string | null;
  extra: Extra;
}

/** Answers that only carry a `message` (ambassador/update, commission/update). */
export function normaliseMessage(data: unknown): MessageResult {
  const r = readFields(data ?? {}, "response data");
  return { message: r.text("message"), extra: r.extra() };
}
