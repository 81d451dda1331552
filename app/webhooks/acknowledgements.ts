// Webhook acknowledgements come first: while this process is answering
// webhooks, its in-process worker holds back (for a bounded time), so a burst
// of deliveries is acknowledged before the sending starts competing for the CPU.
//
// "Answering webhooks" is more than "one is in flight right now": under a
// steady stream the count drops to zero between two group commits, while the
// next requests are still in the socket buffers. A webhook answered within
// the last QUIET_MS still counts.

const QUIET_MS = 100;

let inFlight = 0;
let lastAnsweredAt = -Infinity;

export async function acknowledging<T>(work: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
    lastAnsweredAt = performance.now();
  }
}

export function acknowledgementsInFlight(): number {
  return inFlight;
}

/** True while webhooks are being answered, or were a moment ago. */
export function answeringWebhooks(now = performance.now()): boolean {
  return inFlight > 0 || now - lastAnsweredAt < QUIET_MS;
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
