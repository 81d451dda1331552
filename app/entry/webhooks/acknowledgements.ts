import { WebhooksAnswering } from "../../platform/threads/webhooks-answering";

// The order webhooks this process is answering: a stop lets them finish
// first (stopAppProcess), and job workers hold back their claims during a
// burst, so that it is acknowledged before the sending competes with it for
// the CPU: the in-process worker's thread reads the count in shared memory
// (worker-thread.ts), worker processes hear of bursts through the database
// (wiring/webhook-bursts.server.ts, onBurst).

const answering = new WebhooksAnswering();
const burstListeners = new Set<() => void>();
let burstToldAt = -Infinity;
let burstEveryMs = Infinity;

export async function acknowledging<T>(work: () => Promise<T>): Promise<T> {
  answering.begin();
  if (burstListeners.size > 0 && answering.inBurst()) {
    const now = performance.now();
    if (now - burstToldAt >= burstEveryMs) {
      burstToldAt = now;
      for (const listener of burstListeners) listener();
    }
  }
  try {
    return await work();
  } finally {
    answering.end();
  }
}

/** Calls `listener` while this process answers a burst of order webhooks, at most once every `everyMs`. */
export function onBurst(listener: () => void, everyMs: number): () => void {
  burstListeners.add(listener);
  burstEveryMs = Math.min(burstEveryMs, everyMs);
  return () => burstListeners.delete(listener);
}

export function acknowledgementsInFlight(): number {
  return answering.count();
}

/** Resolves once no webhook is being answered (true), or after `deadlineMs` with some still under way (false). */
export async function webhooksAnswered(deadlineMs: number): Promise<boolean> {
  const until = performance.now() + deadlineMs;
  while (answering.count() > 0) {
    if (performance.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}
