import { realSleep, type Sleep } from "../http/sleep";

/** Waits until a request may be sent within the limit; resolves to the milliseconds waited. */
export interface ExportLimiter {
  acquire(key: string): Promise<number>;
}

export interface ExportLimiterOptions {
  /** Requests allowed per window (default 6, the service's compliance/export limit). */
  limit?: number;
  /** Window length (default one minute). */
  windowMs?: number;
  now?: () => number;
  sleep?: Sleep;
}

/**
 * A sliding-window limiter per key (baseUrl + username): callers wait for a
 * free slot instead of failing. Callers of one key are served in arrival order.
 */
export function createExportLimiter({
  limit = 6,
  windowMs = 60_000,
  now = Date.now,
  sleep = realSleep,
}: ExportLimiterOptions = {}): ExportLimiter {
  if (!(limit >= 1)) throw new RangeError("Export limiter needs a limit of at least 1");
  const sent = new Map<string, number[]>();
  const queues = new Map<string, Promise<unknown>>();

  async function takeSlot(key: string): Promise<number> {
    let waited = 0;
    for (;;) {
      const at = now();
      const recent = (sent.get(key) ?? []).filter((t) => t > at - windowMs);
      sent.set(key, recent);
      if (recent.length < limit) {
        recent.push(at);
        return waited;
      }
      const wait = Math.max(1, recent[0] + windowMs - at);
      await sleep(wait);
      waited += wait;
    }
  }

  return {
    acquire(key) {
      const turn = (queues.get(key) ?? Promise.resolve()).then(() => takeSlot(key));
      const settled = turn.catch(() => undefined);
      queues.set(key, settled);
      void settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key);
      });
      return turn;
    },
  };
}

/** One limiter per process, shared by every client, so all clients of one account respect the limit together. */
export const sharedExportLimiter: ExportLimiter = createExportLimiter();
