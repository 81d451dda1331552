// The service writes timestamps in several formats; all of them are UTC here.

export const DAY_MS = 86_400_000;

function iso(ms: number): string {
  return new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
}

/** YYYY-MM-DD */
export function formatDate(ms: number): string {
  return iso(ms).slice(0, 10);
}

/** YYYY-MM-DDTHH:MM:SS (webhook envelopes and payload dates). */
export function formatWebhookTime(ms: number): string {
  return iso(ms).slice(0, 19);
}

/** YYYY-MM-DDTHH:MM:SS+0000, or with microseconds when `fractional` (the list of ambassadors). */
export function formatOffsetTime(ms: number, fractional = false): string {
  const base = iso(ms).slice(0, 19);
  return fractional ? `${base}.${iso(ms).slice(20, 23)}000+0000` : `${base}+0000`;
}

/** YYYY-MM-DD HH:MM:SS.mmm (commissions). */
export function formatCommissionTime(ms: number): string {
  return iso(ms).slice(0, 23).replace("T", " ");
}

export function formatUnixSeconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}

export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export interface ParsedDate {
  ms: number;
  /** true for a bare YYYY-MM-DD (filters then work on whole days). */
  dateOnly: boolean;
}

/** Accepts YYYY-MM-DD and ISO 8601 date-times (with or without offset; no offset = UTC). */
export function parseFilterDate(text: string): ParsedDate | undefined {
  const value = text.trim();
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (dateOnly) {
    const ms = Date.UTC(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]));
    return formatDate(ms) === value ? { ms, dateOnly: true } : undefined;
  }
  const dateTime = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(value);
  if (!dateTime) return undefined;
  let normalised = value.replace(" ", "T");
  if (!dateTime[3]) normalised += "Z";
  else if (/[+-]\d{4}$/.test(normalised)) normalised = `${normalised.slice(0, -2)}:${normalised.slice(-2)}`;
  const ms = Date.parse(normalised);
  return Number.isNaN(ms) ? undefined : { ms, dateOnly: false };
}

/** Strict YYYY-MM-DD, returns midnight UTC. */
export function parseDay(text: string): number | undefined {
  const parsed = parseFilterDate(text);
  return parsed?.dateOnly ? parsed.ms : undefined;
}
