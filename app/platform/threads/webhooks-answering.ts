import { isMainThread, workerData } from "node:worker_threads";

// How many order webhooks the app's main thread is answering, kept in memory
// that the process's threads share: the in-process worker's thread reads it
// to hold back its claims while a burst of deliveries is being acknowledged
// (its jobs and the service's answers would otherwise take the CPU the
// acknowledgements need). A thread started by the app is handed the buffer in
// its workerData (`webhooksAnswering`).

/**
 * A burst: this many order webhooks being answered at once. Answered in a
 * few milliseconds each, webhooks arriving steadily rarely overlap this much;
 * when they do, acknowledgements are queuing for the CPU.
 */
const BURST_IN_FLIGHT = 8;

declare global {
  // One count per process, whichever module copy asks (Remix dev reloads, tests).
  var __referralBridgeWebhooksAnswering: SharedArrayBuffer | undefined;
}

/** The buffer a thread started by this process must be given (workerData.webhooksAnswering) to read the count. */
export function webhooksAnsweringBuffer(): SharedArrayBuffer {
  const handed = isMainThread ? undefined : (workerData as { webhooksAnswering?: unknown } | null)?.webhooksAnswering;
  globalThis.__referralBridgeWebhooksAnswering ??= handed instanceof SharedArrayBuffer ? handed : new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  return globalThis.__referralBridgeWebhooksAnswering;
}

export class WebhooksAnswering {
  private readonly cells: Int32Array;

  constructor(buffer: SharedArrayBuffer = webhooksAnsweringBuffer()) {
    this.cells = new Int32Array(buffer);
  }

  begin(): void {
    Atomics.add(this.cells, 0, 1);
  }

  end(): void {
    Atomics.sub(this.cells, 0, 1);
  }

  count(): number {
    return Atomics.load(this.cells, 0);
  }

  inBurst(): boolean {
    return this.count() >= BURST_IN_FLIGHT;
  }
}
