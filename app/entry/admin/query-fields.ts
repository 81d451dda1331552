import { z } from "zod";

// Filters arrive in the URL, typed by hand: a bad value is reported next to
// its field and ignored, so the rest of the page still works.

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2026-01-31.")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "This date doesn't exist.");

export const pageNumber = z.coerce.number().int().min(1).max(100_000).catch(1);

export interface ParsedQuery<T> {
  values: Partial<T>;
  errors: Partial<Record<keyof T, string>>;
  /** The text of every field as sent, so a wrong value can be shown and corrected. */
  raw: Partial<Record<keyof T, string>>;
}

/** Parses each field on its own; empty fields are absent. */
export function parseQueryFields<Shape extends z.ZodRawShape>(
  shape: Shape,
  params: URLSearchParams
): ParsedQuery<{ [K in keyof Shape]: z.output<Shape[K]> }> {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  const raw: Record<string, string> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const text = params.get(name)?.trim();
    if (text === undefined || text === "") continue;
    raw[name] = text;
    const parsed = (schema as z.ZodType).safeParse(text);
    if (parsed.success) values[name] = parsed.data;
    else errors[name] = parsed.error.issues[0]?.message ?? "This value isn't valid.";
  }
  return { values, errors, raw } as ParsedQuery<{ [K in keyof Shape]: z.output<Shape[K]> }>;
}

/** The day after an ISO date: "created on or before D" sent as "before D + 1 at midnight". */
export function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
