// Every TOML of the app, loaded by Shopify CLI's own offline loader (the one
// `shopify app build` uses) and checked against the CLI's own zod schemas, so a
// key Shopify does not know fails here instead of being dropped silently on
// deploy. The CLI's schemas strip unknown keys; `unknownKeys` below walks the
// same schemas strictly.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const APP_TOML = path.join(root, "shopify.app.toml");

// The CLI ships as one bundle; these are its chunks for the pinned version
// (package.json: "@shopify/cli": "4.8.2"). After an upgrade, find the chunk that
// says "Unsupported section(s) in app configuration" and exports
// localAppContext ({ directory } -> { app }), and the one exporting the TOML
// decoder (the only chunk containing "Unexpected character, expected").
const CLI_VERSION = "4.8.2";
const CLI_LOADER = { chunk: "chunk-7LW23M5C.js", localAppContext: "xa" };
const CLI_TOML = { chunk: "chunk-4QBJ5JBX.js", decodeToml: "a" };

const require = createRequire(import.meta.url);
const cliRoot = path.dirname(require.resolve("@shopify/cli/package.json"));

// The parts of the CLI's zod (v3) schemas the walk reads.
interface ZodLike {
  _def: Record<string, unknown> & { typeName?: string };
  safeParse(value: unknown): { success: boolean };
}
interface LoadedExtension {
  handle: string;
  configurationPath: string;
  specification: { identifier: string; schema: ZodLike; deployConfig?: (config: Json, directory: string) => Promise<unknown> };
}
interface LoadedApp {
  configPath: string;
  configSchema: ZodLike;
  realExtensions: LoadedExtension[];
  errors: { isEmpty(): boolean; getErrors(): unknown[] };
}

type Json = Record<string, unknown>;
const isTable = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The paths of keys in `value` that `schema` does not name, however deep. */
export function unknownKeys(schema: ZodLike, value: unknown, at = ""): string[] {
  const def = schema._def;
  const inner = (key: string) => def[key] as ZodLike;
  switch (def.typeName) {
    case "ZodOptional":
    case "ZodNullable":
      return value === undefined || value === null ? [] : unknownKeys(inner("innerType"), value, at);
    case "ZodDefault":
    case "ZodCatch":
    case "ZodReadonly":
      return unknownKeys(inner("innerType"), value, at);
    case "ZodBranded":
      return unknownKeys(inner("type"), value, at);
    case "ZodEffects":
      return unknownKeys(inner("schema"), value, at);
    case "ZodPipeline":
      return unknownKeys(inner("in"), value, at);
    case "ZodLazy":
      return unknownKeys((def.getter as () => ZodLike)(), value, at);
    case "ZodArray":
      return Array.isArray(value) ? value.flatMap((item, index) => unknownKeys(inner("type"), item, `${at}[${index}]`)) : [];
    case "ZodRecord":
      return isTable(value) ? Object.entries(value).flatMap(([key, item]) => unknownKeys(inner("valueType"), item, `${at}.${key}`)) : [];
    case "ZodIntersection": {
      // A key either side knows is known.
      const right = new Set(unknownKeys(inner("right"), value, at));
      return unknownKeys(inner("left"), value, at).filter((key) => right.has(key));
    }
    case "ZodUnion":
    case "ZodDiscriminatedUnion": {
      // A discriminated union keeps its options in a Map in some zod versions.
      const raw = def.options as Iterable<ZodLike> | Map<unknown, ZodLike>;
      const options = [...(raw instanceof Map ? raw.values() : raw)];
      const fitting = options.filter((option) => option.safeParse(value).success);
      const results = (fitting.length > 0 ? fitting : options).map((option) => unknownKeys(option, value, at));
      return results.reduce((fewest, result) => (result.length < fewest.length ? result : fewest));
    }
    case "ZodObject": {
      if (!isTable(value)) return [];
      const shape = (def.shape as () => Record<string, ZodLike>)();
      const catchall = def.catchall as ZodLike | undefined;
      return Object.entries(value).flatMap(([key, item]) => {
        const where = at ? `${at}.${key}` : key;
        if (key in shape) return unknownKeys(shape[key]!, item, where);
        if (catchall && catchall._def.typeName !== "ZodNever") return unknownKeys(catchall, item, where);
        return [where];
      });
    }
    default:
      return [];
  }
}

// The app-owned metafield definitions ([<owner>.metafields.app.<key>]): the
// CLI 4.8.2 loader passes these tables on to Shopify unread (its config
// schema has no key for them, and `shopify app build` does not look), so they
// are checked here against what its own definition writer (chunk-O2FGO4CJ.js,
// used by `shopify app config pull`) emits for a definition: these keys, and
// the access values it maps Shopify's enums to.
const DEFINITION_OWNERS = ["customer", "product", "variant", "collection", "order", "company", "company_location", "location", "shop", "article", "blog", "page", "market"];
const DEFINITION_ACCESS: Record<string, string[]> = {
  admin: ["merchant_read", "merchant_read_write"],
  storefront: ["public_read", "none"],
  customer_account: ["read", "read_write", "none"],
};
// Shopify's metafield types (shopify.dev, "List of data types"); list.<type> for a list of them.
const METAFIELD_TYPES = [
  "boolean", "color", "date", "date_time", "dimension", "id", "json", "link", "money", "multi_line_text_field", "number_decimal", "number_integer",
  "rating", "rich_text_field", "single_line_text_field", "url", "volume", "weight", "collection_reference", "customer_reference", "file_reference",
  "metaobject_reference", "mixed_reference", "page_reference", "product_reference", "variant_reference", "company_reference",
];

/** What is wrong with the app-owned metafield definitions of shopify.app.toml (paths and why); empty when nothing is. */
export function definitionProblems(raw: Json): string[] {
  const problems: string[] = [];
  for (const owner of Object.keys(raw).filter((key) => isTable(raw[key]) && "metafields" in (raw[key] as Json))) {
    const at = (path: string) => `${owner}.${path}`;
    if (!DEFINITION_OWNERS.includes(owner)) problems.push(`${owner}: not an owner of metafield definitions`);
    const section = raw[owner] as Json;
    for (const key of Object.keys(section)) if (key !== "metafields") problems.push(at(key));
    const metafields = section.metafields as Json;
    for (const namespace of Object.keys(metafields)) {
      if (namespace !== "app") problems.push(at(`metafields.${namespace}: an app declares definitions in its own namespace only (app)`));
      for (const [key, value] of Object.entries(isTable(metafields[namespace]) ? (metafields[namespace] as Json) : {})) {
        const where = at(`metafields.${namespace}.${key}`);
        if (!/^[A-Za-z0-9_-]{2,64}$/.test(key)) problems.push(`${where}: a key is 2 to 64 letters, digits, - or _`);
        if (!isTable(value)) {
          problems.push(`${where}: not a table`);
          continue;
        }
        for (const [field, item] of Object.entries(value)) {
          if (field === "name" || field === "description") {
            if (typeof item !== "string") problems.push(`${where}.${field}: not text`);
          } else if (field === "type") {
            const type = String(item).replace(/^list\./, "");
            if (!METAFIELD_TYPES.includes(type)) problems.push(`${where}.type: ${String(item)} is not a metafield type`);
          } else if (field === "access" && isTable(item)) {
            for (const [surface, level] of Object.entries(item)) {
              if (!(surface in DEFINITION_ACCESS)) problems.push(`${where}.access.${surface}`);
              else if (!DEFINITION_ACCESS[surface]!.includes(String(level))) problems.push(`${where}.access.${surface}: ${String(level)}`);
            }
          } else if (field === "capabilities" && isTable(item)) {
            for (const capability of Object.keys(item)) if (capability !== "admin_filterable") problems.push(`${where}.capabilities.${capability}`);
          } else if (field !== "validations") {
            problems.push(`${where}.${field}`);
          }
        }
        if (typeof value.type !== "string") problems.push(`${where}.type: missing`);
      }
    }
  }
  return problems;
}

/** shopify.app.toml without its metafield definitions, for the walk of the CLI's config schema. */
const withoutDefinitions = (raw: Json): Json => Object.fromEntries(Object.entries(raw).filter(([, value]) => !(isTable(value) && "metafields" in value)));

/** An extension TOML's tables as the loader merges them: top-level keys + each [[extensions]] entry. */
function extensionTables(raw: Json): { handle: string | null; table: Json }[] {
  if (!Array.isArray(raw.extensions)) return [{ handle: typeof raw.handle === "string" ? raw.handle : null, table: raw }];
  const { extensions, ...shared } = raw;
  return (extensions as Json[]).map((entry) => ({ handle: String(entry.handle), table: { ...shared, ...entry } }));
}

let app: LoadedApp;
let decodeToml: (text: string) => Json;
const readToml = (file: string) => decodeToml(readFileSync(file, "utf8"));

beforeAll(async () => {
  const cliPackage = JSON.parse(readFileSync(path.join(cliRoot, "package.json"), "utf8")) as { version: string };
  expect(cliPackage.version, "the CLI chunks named in this test belong to this version").toBe(CLI_VERSION);
  const load = async (chunk: string) => (await import(pathToFileURL(path.join(cliRoot, "dist", chunk)).href)) as Json;
  decodeToml = (await load(CLI_TOML.chunk))[CLI_TOML.decodeToml] as typeof decodeToml;
  const localAppContext = (await load(CLI_LOADER.chunk))[CLI_LOADER.localAppContext] as (options: {
    directory: string;
  }) => Promise<{ app: LoadedApp }>;
  expect(typeof localAppContext).toBe("function");
  ({ app } = await localAppContext({ directory: root }));
}, 60_000);

describe("the app's TOML files, loaded by Shopify CLI " + CLI_VERSION, () => {
  it("loads without errors", () => {
    expect(app.errors.getErrors()).toEqual([]);
    expect(app.configPath).toBe(APP_TOML);
  });

  it("loads every extension folder", () => {
    const folders = readdirSync(path.join(root, "extensions"))
      .map((name) => path.join(root, "extensions", name, "shopify.extension.toml"))
      .filter((file) => existsSync(file));
    const loaded = new Set(app.realExtensions.map((extension) => extension.configurationPath));
    expect(folders.length).toBeGreaterThanOrEqual(3);
    for (const file of folders) expect(loaded.has(file), `${path.relative(root, file)} is loaded`).toBe(true);
  });

  it("uses no key in shopify.app.toml that the CLI's schemas do not know", () => {
    expect(unknownKeys(app.configSchema, withoutDefinitions(readToml(APP_TOML)))).toEqual([]);
  });

  it("declares its app-owned metafield definitions as the CLI writes them", () => {
    const raw = readToml(APP_TOML);
    expect(definitionProblems(raw)).toEqual([]);
    const customer = ((raw.customer as Json).metafields as Json).app as Json;
    expect(Object.keys(customer).sort()).toEqual(["share_code", "share_link"]);
  });

  it("would fail on a wrong metafield definition", () => {
    const raw = readToml(APP_TOML);
    const app = ((raw.customer as Json).metafields as Json).app as Json;
    const wrong = {
      ...raw,
      customer: {
        metafields: {
          app: {
            ...app,
            share_link: { ...(app.share_link as Json), type: "link_url", access: { storefront: "public_write", customer_account: "read" }, hint: "x" },
            share_code: { name: "Code" },
          },
          referrals: { x1: { type: "url" } },
        },
      },
      shopper: { metafields: { app: { a1: { type: "url" } } } },
    };
    expect(definitionProblems(wrong).sort()).toEqual(
      [
        "customer.metafields.app.share_link.type: link_url is not a metafield type",
        "customer.metafields.app.share_link.access.storefront: public_write",
        "customer.metafields.app.share_link.hint",
        "customer.metafields.app.share_code.type: missing",
        "customer.metafields.referrals: an app declares definitions in its own namespace only (app)",
        "shopper: not an owner of metafield definitions",
      ].sort(),
    );
  });

  it("uses no key in an extension's TOML that its specification's schema does not know", () => {
    const files = [...new Set(app.realExtensions.map((e) => e.configurationPath))].filter((file) => file !== APP_TOML);
    for (const file of files) {
      for (const { handle, table } of extensionTables(readToml(file))) {
        const extension = app.realExtensions.find((e) => e.configurationPath === file && (handle === null || e.handle === handle));
        expect(extension, `${path.relative(root, file)}: ${handle}`).toBeDefined();
        const { schema, identifier } = extension!.specification;
        expect(schema.safeParse(table).success, `${handle} parses as ${identifier}`).toBe(true);
        expect(unknownKeys(schema, table), path.relative(root, file)).toEqual([]);
      }
    }
  });

  it("has nothing the CLI rewrites on deploy (it deletes build.include_config_on_deploy from the file)", () => {
    expect(readToml(APP_TOML).build).not.toHaveProperty("include_config_on_deploy");
  });

  it("would fail on a key Shopify does not know, however deep", () => {
    const raw = withoutDefinitions(readToml(APP_TOML));
    const build = { ...(raw.build as Json), include_config_on_dev: true };
    const proxy = { ...(raw.app_proxy as Json), path: "x" };
    expect(unknownKeys(app.configSchema, { ...raw, build, app_proxy: proxy, bogus: 1 }).sort()).toEqual([
      "app_proxy.path",
      "bogus",
      "build.include_config_on_dev",
    ]);

    const ui = app.realExtensions.find((e) => e.specification.identifier === "ui_extension")!;
    const [{ table }] = extensionTables(readToml(ui.configurationPath));
    const targeting = (table.targeting as Json[]).map((target) => ({ ...target, modle: "./src/x.tsx" }));
    const expected = targeting.map((_, index) => `targeting[${index}].modle`);
    expect(unknownKeys(ui.specification.schema, { ...table, targeting })).toEqual(expected);
  });

  it("loads the seven Flow triggers, and would fail a broken trigger's TOML", async () => {
    const triggers = app.realExtensions.filter((e) => e.specification.identifier === "flow_trigger");
    expect(triggers.map((e) => e.handle).sort()).toEqual([
      "ambassador-enrolled",
      "commission-approved",
      "commission-denied",
      "payout-store-credit",
      "referral-blocked",
      "referral-code-leaked",
      "referral-credited",
    ]);
    const credited = triggers.find((e) => e.handle === "referral-credited")!;
    const [{ table }] = extensionTables(readToml(credited.configurationPath));
    const { schema } = credited.specification;
    const fields = (table.settings as { fields: Json[] }).fields;
    const withFields = (changed: Json[]) => ({ ...table, settings: { fields: changed } });
    // The CLI's check of a trigger's fields throws from inside its refinement instead of failing the parse.
    const refuses = (value: Json) => {
      try {
        return !schema.safeParse(value).success;
      } catch {
        return true;
      }
    };
    expect(refuses(table)).toBe(false);
    // A field key Flow cannot take (letters and spaces only), a reference Flow triggers do not support, a field type Flow does not know.
    expect(refuses(withFields([...fields, { type: "single_line_text_field", key: "referrer_email" }]))).toBe(true);
    // What the build sends Shopify (the CLI's deployConfig) refuses a reference Flow triggers do not support and a field type Flow does not know.
    const build = (config: Json) => credited.specification.deployConfig!(config, path.dirname(credited.configurationPath));
    await expect(build(table)).resolves.toMatchObject({ title: "Referral credited" });
    await expect(build(withFields([...fields, { type: "marketing_activity_reference" }]))).rejects.toThrow(/not supported for Flow Triggers/);
    await expect(build(withFields([...fields, { type: "money", key: "Amount" }]))).rejects.toThrow(/not supported on Flow Triggers/);
    expect(unknownKeys(schema, { ...table, runtime_url: "https://example.com" })).toEqual(["runtime_url"]);
  });
});

describe("the Flow actions, loaded by Shopify CLI " + CLI_VERSION, () => {
  const flowActions = () => app.realExtensions.filter((e) => e.specification.identifier === "flow_action");

  it("loads both actions as flow_action extensions, posting to the app's action path", () => {
    expect(flowActions().map((e) => e.handle).sort()).toEqual(["decide-commission", "enrol-ambassador"]);
    for (const action of flowActions()) {
      const [{ table }] = extensionTables(readToml(action.configurationPath));
      expect(table.runtime_url, action.handle).toBe("/flow/actions");
    }
  });

  it("would fail on a broken action TOML: no runtime URL, a text field without its key, an unknown field type", () => {
    const action = flowActions().find((e) => e.handle === "enrol-ambassador")!;
    const [{ table }] = extensionTables(readToml(action.configurationPath));
    // The CLI's refinement of the fields throws instead of answering false.
    const parses = (value: unknown) => {
      try {
        return action.specification.schema.safeParse(value).success;
      } catch {
        return false;
      }
    };
    expect(parses(table)).toBe(true);
    const { runtime_url: _dropped, ...noRuntime } = table;
    expect(parses(noRuntime)).toBe(false);
    const fields = (table.settings as { fields: Json[] }).fields;
    const keyless = fields.map(({ key: _key, ...field }) => field);
    expect(parses({ ...table, settings: { fields: keyless } })).toBe(false);
    const unknownType = fields.map((field) => ({ ...field, type: "customer_referral" }));
    expect(parses({ ...table, settings: { fields: unknownType } })).toBe(false);
  });
});
