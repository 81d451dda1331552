// The order webhooks this process is answering, so that a stop lets them
// finish first (stopAppProcess). The in-process worker needs no count: it has
// a thread of its own (app/wiring/worker-thread.ts).

let inFlight = 0;

export async function acknowledging<T>(work: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
  }
}

export function acknowledgementsInFlight(): number {
  return inFlight;
}

/** Resolves once no webhook is being answered (true), or after `deadlineMs` with some still under way (false). */
export async function webhooksAnswered(deadlineMs: number): Promise<boolean> {
  const until = performance.now() + deadlineMs;
  while (inFlight > 0) {
    if (performance.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}
