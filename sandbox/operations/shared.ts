import { badRequest, notFound, notNumbersMessage } from "../envelope";
import { isDecimal, parseCents } from "../money";
import type { Params } from "../params";
import { parseDay } from "../dates";
import {
  ADDRESS_FIELDS,
  AMBASSADOR_STATUSES,
  CUSTOM_FIELDS,
  isValidEmail,
  type Ambassador,
  type AmbassadorStatus,
  type Store,
} from "../state";
import { createAmbassador, resolveGroupIds, type NewAmbassador } from "../domain/ambassadors";

export interface OperationContext {
  store: Store;
  params: Params;
  now: number;
  limits: { exportPerMinute: number };
}

/** A success answer that is not wrapped in the envelope (compliance/export). */
export class RawJson {
  constructor(readonly body: unknown) {}
}

export interface OperationDef {
  /** The documented method; the other one is accepted too. */
  method: "GET" | "POST";
  run(ctx: OperationContext): unknown;
  /** Calls go to the ledger's `events` (event/record, event/multi_record). */
  ledger?: boolean;
}

export function customFields(params: Params): Record<string, string | undefined> {
  const custom4 = params.get("custom4");
  if (custom4 !== undefined && parseDay(custom4) === undefined) {
    throw badRequest(`The following ${params.wording} parameter must be a date (YYYY-MM-DD): custom4.`);
  }
  return Object.fromEntries(CUSTOM_FIELDS.map((name) => [name, params.get(name)]));
}

export function addressFields(params: Params): Partial<Record<(typeof ADDRESS_FIELDS)[number], string>> {
  return Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, params.get(name)]).filter(([, v]) => v !== undefined));
}

export function statusParam(params: Params): AmbassadorStatus | undefined {
  const status = params.get("status")?.toLowerCase();
  if (status === undefined) return undefined;
  if (!(AMBASSADOR_STATUSES as readonly string[]).includes(status)) {
    throw badRequest(`The following ${params.wording} parameter is invalid: status (${AMBASSADOR_STATUSES.join(", ")}).`);
  }
  return status as AmbassadorStatus;
}

/** Profile and creation flags shared by the operations that may create an ambassador. */
export function creationInput(store: Store, params: Params, email: string, source: string): NewAmbassador {
  if (!isValidEmail(email)) throw badRequest(`The email address ${email} is not valid.`);
  const groups = params.list("set_groups") ?? params.list("add_to_group_id");
  return {
    email,
    uid: params.get("uid") ?? null,
    firstName: params.get("first_name") ?? null,
    lastName: params.get("last_name") ?? null,
    custom: customFields(params),
    address: addressFields(params),
    company: params.get("company") ?? null,
    paypalEmail: params.get("paypal_email") ?? null,
    status: statusParam(params),
    deactivated: params.flag("deactivate_new_ambassador") ?? false,
    sandbox: params.flag("sandbox") ?? false,
    groups: groups === undefined ? undefined : resolveGroupIds(store, groups, params.has("set_groups") ? "set_groups" : "add_to_group_id"),
    sendWelcomeEmail: params.flag("email_new_ambassador") ?? false,
    source,
  };
}

/** Finds the ambassador by email, creating it when auto_create=1; otherwise 404. */
export function findOrCreateByEmail(ctx: OperationContext, source: string, autoCreate = ctx.params.flag("auto_create") ?? false): {
  ambassador: Ambassador;
  created: boolean;
} {
  const email = ctx.params.get("email")!;
  const existing = ctx.store.findByEmail(email);
  if (existing) return { ambassador: existing, created: false };
  if (!autoCreate) throw notFound(`No ambassador exists with the email ${email}.`);
  return { ambassador: createAmbassador(ctx.store, creationInput(ctx.store, ctx.params, email, source), ctx.now), created: true };
}

/** uid wins over email when both are sent. */
export function findByUidOrEmail(store: Store, params: Params): Ambassador | undefined {
  const uid = params.get("uid");
  if (uid !== undefined) return store.findByUid(uid);
  return store.findByEmail(params.get("email")!);
}

export function describeIdentity(params: Params): string {
  const uid = params.get("uid");
  return uid !== undefined ? `the uid ${uid}` : `the email ${params.get("email")}`;
}

/** A non-negative decimal amount in cents (half-up); `null` when absent. */
export function moneyParam(params: Params, name: string): number | null {
  const value = params.get(name);
  if (value === undefined) return null;
  if (!isDecimal(value)) throw badRequest(notNumbersMessage([name], "GET/POST"));
  const cents = parseCents(value);
  if (cents < 0) throw badRequest(`The following ${params.wording} parameter must not be negative: ${name}.`);
  return cents;
}

export function eventData(params: Params): [string | null, string | null, string | null] {
  return [params.get("event_data1") ?? null, params.get("event_data2") ?? null, params.get("event_data3") ?? null];
}

/** Pages are 1-based; anything below 1 reads as 1. */
export function paginate<T>(items: T[], page: number | undefined, size = 100): T[] {
  const index = Math.max(1, page ?? 1) - 1;
  return items.slice(index * size, index * size + size);
}
