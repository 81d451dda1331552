// Shopify Flow as the Admin stand-in answers flowTriggerReceive: the
// triggers it knows are the app's extensions/flow-*/shopify.extension.toml
// (handle and fields), and it answers as Shopify documents: userErrors for
// an unknown handle, a payload over 50 KB, or a field the trigger does not
// declare. What it accepted is kept in `received` for tests to read.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

type Args = Record<string, unknown>;
type UserError = { field: string[] | null; message: string };

export interface ReceivedTrigger {
  handle: string;
  payload: Record<string, unknown>;
}

/** Shopify's limit on a trigger's payload. */
export const STANDIN_FLOW_PAYLOAD_LIMIT = 50_000;

const REFERENCE_KEYS: Record<string, string> = { customer_reference: "customer_id", order_reference: "order_id", product_reference: "product_id" };

/** Each flow_trigger extension's handle and the payload keys its fields declare. */
export function appFlowTriggers(root = path.resolve(import.meta.dirname, "../..")): Map<string, Set<string>> {
  const triggers = new Map<string, Set<string>>();
  const folder = path.join(root, "extensions");
  for (const name of readdirSync(folder)) {
    let toml: string;
    try {
      toml = readFileSync(path.join(folder, name, "shopify.extension.toml"), "utf8");
    } catch {
      continue;
    }
    if (!/^type\s*=\s*"flow_trigger"/m.test(toml)) continue;
    const handle = toml.match(/^handle\s*=\s*"([^"]+)"/m)?.[1];
    if (!handle) continue;
    const keys = new Set<string>();
    for (const block of toml.split("[[settings.fields]]").slice(1)) {
      const type = block.match(/^type\s*=\s*"([^"]+)"/m)?.[1] ?? "";
      const key = block.match(/^key\s*=\s*"([^"]+)"/m)?.[1];
      if (REFERENCE_KEYS[type]) keys.add(REFERENCE_KEYS[type]);
      else if (key) keys.add(key);
    }
    triggers.set(handle, keys);
  }
  return triggers;
}

export class StandInFlow {
  readonly triggers = appFlowTriggers();
  readonly received: ReceivedTrigger[] = [];

  receivedOf(handle: string): ReceivedTrigger[] {
    return this.received.filter((r) => r.handle === handle);
  }

  private receive({ handle, payload, body }: Args): { userErrors: UserError[] } {
    if (body !== undefined && body !== null) return { userErrors: [{ field: ["body"], message: "body is deprecated: send handle and payload" }] };
    const fields = this.triggers.get(String(handle));
    if (!fields) return { userErrors: [{ field: ["handle"], message: `Trigger handle '${String(handle)}' is not valid` }] };
    if (!payload || typeof payload !== "object" || Array.isArray(payload)) return { userErrors: [{ field: ["payload"], message: "Payload must be an object" }] };
    if (Buffer.byteLength(JSON.stringify(payload)) > STANDIN_FLOW_PAYLOAD_LIMIT) return { userErrors: [{ field: ["payload"], message: "Payload exceeds the 50 KB limit" }] };
    const unknown = Object.keys(payload).filter((key) => !fields.has(key));
    if (unknown.length > 0) return { userErrors: [{ field: ["payload"], message: `Errors validating schema: unknown properties ${unknown.join(", ")}` }] };
    this.received.push({ handle: String(handle), payload: payload as Record<string, unknown> });
    return { userErrors: [] };
  }

  resolvers(): Record<string, (args: Args) => unknown> {
    return { flowTriggerReceive: (args) => this.receive(args) };
  }
}
