import type { z } from "zod";

/**
 * What storing a job of one kind needs: its name, the schema of its payload
 * (checked when the job is stored and again when it runs) and, for kinds
 * whose jobs must run one at a time, their lane. No handler: the code that
 * makes jobs (the SQLite intake thread among it) loads only this.
 */
export interface JobKind<Name extends string = string, Schema extends z.ZodType = z.ZodType> {
  readonly name: Name;
  readonly payload: Schema;
  /** Jobs of one lane run one at a time, in the order of their trigger (see claimJobs). */
  readonly lane?: (shop: string, payload: z.output<Schema>) => string;
}

export type PayloadOf<K extends JobKind> = z.input<K["payload"]>;

export function defineJobKind<const Name extends string, Schema extends z.ZodType>(kind: JobKind<Name, Schema>): JobKind<Name, Schema> {
  return kind;
}
