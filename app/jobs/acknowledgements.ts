// Webhook acknowledgements come first: while this process is answering
// webhooks, its in-process worker holds back (for a bounded time), so a burst
// of deliveries is acknowledged before the sending starts competing for the CPU.

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
