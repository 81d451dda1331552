import { sendShopifyWebhook } from "../lib/shopify-webhook";

export interface LoadResult {
  latenciesMs: number[];
  wallMs: number;
  statuses: Record<number, number>;
}

/** Sends every body to orders/paid with at most `concurrency` requests in flight. */
export async function sendOrders(options: {
  appUrl: string;
  shop: string;
  secret: string;
  bodies: unknown[];
  concurrency: number;
}): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  async function lane() {
    while (next < options.bodies.length) {
      const body = options.bodies[next++];
      const sent = await sendShopifyWebhook({ appUrl: options.appUrl, topic: "orders/paid", shop: options.shop, body, secret: options.secret });
      latenciesMs.push(sent.ms);
      statuses[sent.status] = (statuses[sent.status] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return { latenciesMs, wallMs: performance.now() - started, statuses };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
