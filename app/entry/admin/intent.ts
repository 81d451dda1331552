// No zod here: route modules import this for their actions, and whatever a
// route module imports at its top reaches the browser's bundle.

/** Which of a page's forms was sent; anything else is refused. */
export function readIntent<const T extends readonly [string, ...string[]]>(form: FormData, intents: T): T[number] | null {
  const value = form.get("intent");
  return typeof value === "string" && (intents as readonly string[]).includes(value) ? (value as T[number]) : null;
}
