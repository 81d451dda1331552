// Signed webhook deliveries: POST of the raw JSON envelope, header
// X-SERVICE-HMAC-SHA256 = base64(HMAC-SHA256(secret, body bytes)); an attempt
// succeeds on 200/201 within the timeout; retries after 5 and 30 minutes
// (x timeScale), then the delivery is marked failed.

import { createHmac } from "node:crypto";
import { formatWebhookTime } from "./dates";

export const WEBHOOK_VERSION = 0.4;
export const RETRY_DELAYS_MS = [5 * 60_000, 30 * 60_000] as const;
export const SIGNATURE_HEADER = "X-SERVICE-HMAC-SHA256";
export const EVENT_TYPES = [
  "contact-created",
  "contact-status-updated",
  "commission-created",
  "commission-status-updated",
  "payout-created",
  "share-tracked",
  "click-tracked",
  "referral-created",
  "contact-added-to-campaign",
  "contact-added-to-segment",
] as const;

const DELIVERY_LIMIT = 10_000;

export interface Receiver {
  id: number;
  url: string;
  secret: string;
  /** null = every event type */
  events: string[] | null;
  created_at: string;
}

export interface DeliveryAttempt {
  at: string;
  status: number | null;
  error?: string;
  durationMs: number;
}

export interface Delivery {
  id: number;
  receiver_id: number;
  url: string;
  event_id: number;
  event_type: string;
  body: string;
  signature: string;
  state: "pending" | "delivered" | "failed";
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
}

export class WebhookConfigError extends Error {}

export function sign(secret: string, body: string | Buffer): string {
  return createHmac("sha256", secret).update(body).digest("base64");
}

// Event ids start from the clock so they stay unique across resets and restarts:
// receivers de-duplicate on them.
let lastEventId = Date.now();
function nextEventId(): number {
  lastEventId = Math.max(lastEventId + 1, Date.now());
  return lastEventId;
}

export interface DispatcherOptions {
  timeScale: number;
  timeoutMs: number;
  onError?: (message: string) => void;
}

function describeFailure(caught: unknown, timeoutMs: number): string {
  if (!(caught instanceof Error)) return String(caught);
  if (caught.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const cause = (caught as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? caught.message;
}

export class WebhookDispatcher {
  private receiverList: Receiver[] = [];
  private deliveryList: Delivery[] = [];
  private timers = new Set<NodeJS.Timeout>();
  private inFlight = new Set<Promise<void>>();
  private abort = new AbortController();
  private generation = 0;
  private ids = { receiver: 0, delivery: 0 };

  constructor(private readonly options: DispatcherOptions) {}

  register(input: unknown): Receiver {
    const raw = (input ?? {}) as Record<string, unknown>;
    if (typeof raw.url !== "string" || !/^https?:\/\//i.test(raw.url)) {
      throw new WebhookConfigError("url must be an http(s) URL.");
    }
    try {
      new URL(raw.url);
    } catch {
      throw new WebhookConfigError("url must be an http(s) URL.");
    }
    if (typeof raw.secret !== "string" || raw.secret.length === 0) throw new WebhookConfigError("secret must be a non-empty string.");
    let events: string[] | null = null;
    if (raw.events !== undefined && raw.events !== null) {
      if (!Array.isArray(raw.events) || raw.events.some((e) => typeof e !== "string")) {
        throw new WebhookConfigError("events must be an array of event types.");
      }
      const unknown = raw.events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
      if (unknown.length > 0) throw new WebhookConfigError(`Unknown event types: ${unknown.join(", ")}.`);
      events = [...raw.events];
    }
    const receiver: Receiver = {
      id: ++this.ids.receiver,
      url: raw.url,
      secret: raw.secret,
      events,
      created_at: formatWebhookTime(Date.now()),
    };
    this.receiverList.push(receiver);
    return receiver;
  }

  unregister(id?: number): void {
    this.receiverList = id === undefined ? [] : this.receiverList.filter((r) => r.id !== id);
  }

  receivers(): Receiver[] {
    return this.receiverList.map((r) => ({ ...r }));
  }

  deliveries(): Delivery[] {
    return this.deliveryList.map((d) => ({ ...d, attempts: [...d.attempts] }));
  }

  /** Queues one event for every interested receiver; never waits for the network. */
  emit(eventType: string, eventData: Record<string, unknown>): void {
    const targets = this.receiverList.filter((r) => r.events === null || r.events.includes(eventType));
    if (targets.length === 0) return;
    const eventId = nextEventId();
    const body = JSON.stringify({
      webhook_version: WEBHOOK_VERSION,
      created_at: formatWebhookTime(Date.now()),
      event_id: eventId,
      event_type: eventType,
      event_data: eventData,
    });
    for (const receiver of targets) {
      const delivery: Delivery = {
        id: ++this.ids.delivery,
        receiver_id: receiver.id,
        url: receiver.url,
        event_id: eventId,
        event_type: eventType,
        body,
        signature: sign(receiver.secret, body),
        state: "pending",
        attempts: [],
        next_attempt_at: formatWebhookTime(Date.now()),
      };
      this.deliveryList.push(delivery);
      if (this.deliveryList.length > DELIVERY_LIMIT) this.deliveryList.shift();
      this.schedule(delivery, 0);
    }
  }

  /** Resolves when no attempt is running or waiting (retries included). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.timers.size > 0) {
      await Promise.race([...this.inFlight, new Promise((resolve) => setTimeout(resolve, 10))]);
    }
  }

  reset(): void {
    this.generation += 1;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.abort.abort();
    this.abort = new AbortController();
    this.receiverList = [];
    this.deliveryList = [];
  }

  async close(): Promise<void> {
    this.reset();
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delivery: Delivery, delayMs: number): void {
    const generation = this.generation;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (generation !== this.generation) return;
      const attempt = this.attempt(delivery, generation);
      this.inFlight.add(attempt);
      void attempt.finally(() => this.inFlight.delete(attempt));
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(delivery: Delivery, generation: number): Promise<void> {
    const started = Date.now();
    let status: number | null = null;
    let error: string | undefined;
    try {
      const response = await fetch(delivery.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "referral-sandbox-webhooks/0.4",
          [SIGNATURE_HEADER]: delivery.signature,
        },
        body: delivery.body,
        signal: AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), this.abort.signal]),
        redirect: "manual",
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (caught) {
      error = describeFailure(caught, this.options.timeoutMs);
    }
    if (generation !== this.generation) return;
    delivery.attempts.push({ at: formatWebhookTime(started), status, ...(error ? { error } : {}), durationMs: Date.now() - started });
    if (status === 200 || status === 201) {
      delivery.state = "delivered";
      delivery.next_attempt_at = null;
      return;
    }
    const retry = RETRY_DELAYS_MS[delivery.attempts.length - 1];
    if (retry === undefined) {
      delivery.state = "failed";
      delivery.next_attempt_at = null;
      return;
    }
    const delayMs = retry * this.options.timeScale;
    delivery.next_attempt_at = formatWebhookTime(Date.now() + delayMs);
    this.schedule(delivery, delayMs);
  }
}
