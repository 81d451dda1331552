import { z } from "zod";

/** Which of a page's forms was sent; anything else is refused. */
export function readIntent<const T extends readonly [string, ...string[]]>(form: FormData, intents: T): T[number] | null {
  const parsed = z.enum(intents).safeParse(form.get("intent"));
  return parsed.success ? parsed.data : null;
}
