import type { PrismaClient } from "@prisma/client";
import type { z } from "zod";
import type { Logger } from "pino";
import type { JobKind } from "./job-kind";
import type { JobOutcome } from "./outcome";

/** What every handler is given; a registry's context adds what its domains need. */
export interface QueueContext {
  db: PrismaClient;
  logger: Logger;
  now(): Date;
}

/** What a handler may know of the job it runs. */
export interface JobMeta {
  id: string;
  /** When the job was stored: a handler that waits for something can give up after a while. */
  createdAt: Date;
  attempts: number;
  /**
   * Runs a write to another system that must not be made twice (a payment,
   * say). While it runs, the job is marked: a worker that stops keeps the
   * job's lease instead of giving the job back at once, so no other worker
   * takes it before the lease runs out. The write is not started when this
   * worker no longer holds the job (LeaseLostError). What the write did, and
   * whether a second attempt may repeat it, is the handler's to know.
   */
  externalWrite<T>(write: () => Promise<T>): Promise<T>;
}

/** How one kind of job is run. The queue knows a kind only from its definition. */
export interface JobDefinition<Ctx, Payload = unknown> {
  kind: JobKind<string, z.ZodType<Payload>>;
  /**
   * Kinds that share a rate limit at a remote service, per shop: when one of
   * them is asked to slow down (a retry with shopWaits), the shop's other
   * queued jobs of the group wait as long.
   */
  rateLimitGroup?: string;
  /**
   * The job needs nothing outside the app's own database (a local erasure,
   * say): a pause of its shop's jobs (refused credentials) never holds it.
   */
  local?: boolean;
  handle(ctx: Ctx, shop: string, payload: Payload, job: JobMeta): Promise<JobOutcome>;
  /** Reflect the job's final failure where the merchant looks (the order's record). */
  onFailed?(ctx: Ctx, shop: string, payload: Payload, reason: string, attempts: number): Promise<void>;
  /** Reflect an attempt that will be retried, or a pause. */
  onAttempt?(ctx: Ctx, shop: string, payload: Payload, attempts: number, reason: string): Promise<void>;
}

export function defineJob<Ctx, Name extends string, Schema extends z.ZodType>(
  kind: JobKind<Name, Schema>,
  definition: Omit<JobDefinition<Ctx, z.output<Schema>>, "kind">,
): JobDefinition<Ctx, z.output<Schema>> {
  return { kind: kind as JobKind<string, z.ZodType<z.output<Schema>>>, ...definition };
}

export interface JobRegistry<Ctx> {
  readonly kinds: readonly string[];
  definition(kind: string): JobDefinition<Ctx> | undefined;
  /** The kinds of a rate-limit group. */
  kindsSharing(group: string): string[];
  /** The kinds a pause of their shop does not hold (JobDefinition.local). */
  readonly localKinds: readonly string[];
}

/** A definition whatever its payload: the registry checks payloads with the kind's schema before a handler sees them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobDefinition<Ctx> = JobDefinition<Ctx, any>;

/** The task list a worker is handed. A kind defined twice is refused. */
export function createJobRegistry<Ctx>(definitions: readonly AnyJobDefinition<Ctx>[]): JobRegistry<Ctx> {
  const byKind = new Map<string, JobDefinition<Ctx>>();
  for (const definition of definitions) {
    const name = definition.kind.name;
    if (byKind.has(name)) throw new Error(`Job kind ${name} is defined twice`);
    byKind.set(name, definition);
  }
  return {
    kinds: [...byKind.keys()],
    definition: (kind) => byKind.get(kind),
    kindsSharing: (group) => [...byKind.values()].filter((d) => d.rateLimitGroup === group).map((d) => d.kind.name),
    localKinds: [...byKind.values()].filter((d) => d.local).map((d) => d.kind.name),
  };
}
