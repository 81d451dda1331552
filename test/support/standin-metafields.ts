// The customers' metafields in the Admin GraphQL stand-in, as Shopify's
// reference describes metafieldsSet and metafieldsDelete: `$app` (and
// `$app:<name>`) is the app's reserved namespace, stored as
// app--<client id>[--<name>]; a value is checked against the definition the
// app declares in shopify.app.toml ([customer.metafields.app.<key>]: its type
// wins, a different type given is refused, a value that is not of the type is
// refused); the owner must exist; the whole set is refused when one is wrong
// (metafieldsSet is atomic); deleting a metafield that is not there answers
// null for it. Writing a customer's metafields needs write_customers (the
// customer's own write scope), refused with APP_NOT_AUTHORIZED without it.
import { readFileSync } from "node:fs";
import type { StandInCustomers } from "./standin-customers";

type Args = Record<string, unknown>;
type SetError = { field: string[]; message: string; code: string; elementIndex: number | null };

export interface StandInMetafield {
  namespace: string;
  key: string;
  type: string;
  value: string;
  updatedAt: Date;
}

/** The app's customer metafield definitions in shopify.app.toml: key -> type. */
export function declaredCustomerDefinitions(toml = readFileSync(new URL("../../shopify.app.toml", import.meta.url), "utf8")): Map<string, string> {
  const definitions = new Map<string, string>();
  const sections = toml.split(/^(?=\[)/m);
  for (const section of sections) {
    const header = /^\[customer\.metafields\.app\.([A-Za-z0-9_-]+)\]/.exec(section);
    const type = /^type\s*=\s*"([^"]+)"/m.exec(section);
    if (header && type) definitions.set(header[1]!, type[1]!);
  }
  return definitions;
}

/** Whether `value` is a value of the metafield type (the types the app's definitions use; others are taken as they come). */
function valueProblem(type: string, value: string): string | null {
  if (value === "") return "Value can't be blank.";
  if (type === "url") {
    try {
      const url = new URL(value);
      return ["http:", "https:", "mailto:", "sms:", "tel:"].includes(url.protocol) ? null : "Value must be a valid URL with a scheme of http, https, mailto, sms, or tel.";
    } catch {
      return "Value must be a valid URL with a scheme of http, https, mailto, sms, or tel.";
    }
  }
  if (type === "single_line_text_field") return /[\r\n]/.test(value) ? "Value must be a single line of text." : value.length > 65_535 ? "Value is too long." : null;
  return null;
}

export class StandInMetafields {
  /** By owner gid, then "namespace.key" (the namespace as stored: app--<client id>). */
  readonly byOwner = new Map<string, Map<string, StandInMetafield>>();
  readonly definitions = declaredCustomerDefinitions();

  constructor(
    private readonly customers: StandInCustomers,
    private readonly clientId: () => string,
    private readonly scopes: () => string[],
  ) {
    customers.metafieldOf = (id, args) => this.field(id, args);
  }

  private customerExists(id: string): boolean {
    return this.customers.byId.has(id);
  }

  /** `$app` and `$app:<name>` as Shopify stores them. */
  resolveNamespace(namespace: string | undefined): string {
    const given = namespace ?? "$app";
    if (given === "$app") return `app--${this.clientId()}`;
    if (given.startsWith("$app:")) return `app--${this.clientId()}--${given.slice(5)}`;
    return given;
  }

  /** Whether this set is for customers (the stand-in's other owners, the app installation, are answered apart). */
  isForCustomers(metafields: unknown): boolean {
    return Array.isArray(metafields) && metafields.some((m) => String((m as Args).ownerId).startsWith("gid://shopify/Customer/"));
  }

  /** A customer's metafield as a test reads it, by the namespace the app sends ("$app"). */
  valueOf(ownerId: string, key: string, namespace = "$app"): string | null {
    return this.byOwner.get(ownerId)?.get(`${this.resolveNamespace(namespace)}.${key}`)?.value ?? null;
  }

  /** Everything one owner carries, as JSON-ready rows. */
  list(ownerId: string): StandInMetafield[] {
    return [...(this.byOwner.get(ownerId)?.values() ?? [])];
  }

  /** The `metafield(namespace:, key:)` field of a customer. */
  field(ownerId: string, args: Args): Args | null {
    const namespace = this.resolveNamespace(args.namespace as string | undefined);
    const found = this.byOwner.get(ownerId)?.get(`${namespace}.${String(args.key)}`);
    return found ? { ...found, id: `gid://shopify/Metafield/${Math.abs(hash(`${ownerId}${namespace}${found.key}`))}`, ownerType: "CUSTOMER", updatedAt: found.updatedAt.toISOString() } : null;
  }

  private writable(): boolean {
    return this.scopes().includes("write_customers");
  }

  set({ metafields }: Args) {
    const list = metafields as { ownerId: string; namespace?: string; key: string; type?: string; value: string }[];
    const errors: SetError[] = [];
    const fail = (index: number, field: string, message: string, code: string) => errors.push({ field: ["metafields", String(index), field], message, code, elementIndex: index });
    if (list.length > 25) return { metafields: null, userErrors: [{ field: ["metafields"], message: "Exceeded the maximum metafields input limit of 25.", code: "LESS_THAN_OR_EQUAL_TO", elementIndex: null }] };
    list.forEach((m, index) => {
      if (!this.writable()) return fail(index, "ownerId", "Access denied: the app may not write metafields on this owner.", "APP_NOT_AUTHORIZED");
      if (!this.customerExists(m.ownerId)) return fail(index, "ownerId", "Owner does not exist.", "INVALID");
      const namespace = this.resolveNamespace(m.namespace);
      const defined = namespace === this.resolveNamespace("$app") ? this.definitions.get(m.key) : undefined;
      if (defined && m.type && m.type !== defined) return fail(index, "type", `Type must be ${defined} (the type of the metafield definition).`, "INVALID_TYPE");
      const type = m.type ?? defined;
      if (!type) return fail(index, "type", "Type can't be blank.", "BLANK");
      const problem = valueProblem(type, m.value);
      if (problem) fail(index, "value", problem, "INVALID_VALUE");
    });
    // Atomic: nothing is written when one of them is wrong.
    if (errors.length > 0) return { metafields: null, userErrors: errors };
    const written = list.map((m) => {
      const namespace = this.resolveNamespace(m.namespace);
      const type = m.type ?? this.definitions.get(m.key)!;
      const owner = this.byOwner.get(m.ownerId) ?? new Map<string, StandInMetafield>();
      this.byOwner.set(m.ownerId, owner);
      const row: StandInMetafield = { namespace, key: m.key, type, value: m.value, updatedAt: new Date() };
      owner.set(`${namespace}.${m.key}`, row);
      return this.field(m.ownerId, { namespace, key: m.key });
    });
    return { metafields: written, userErrors: [] };
  }

  delete({ metafields }: Args) {
    const list = metafields as { ownerId: string; namespace?: string; key: string }[];
    if (!this.writable()) return { deletedMetafields: null, userErrors: [{ field: ["metafields"], message: "Access denied: the app may not delete metafields on this owner." }] };
    const deleted = list.map((m) => {
      const namespace = this.resolveNamespace(m.namespace);
      const owner = this.byOwner.get(m.ownerId);
      if (!owner?.delete(`${namespace}.${m.key}`)) return null;
      return { ownerId: m.ownerId, namespace, key: m.key };
    });
    return { deletedMetafields: deleted, userErrors: [] };
  }
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}
