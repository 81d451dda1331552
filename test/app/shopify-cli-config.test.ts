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
  specification: { identifier: string; schema: ZodLike };
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
    expect(unknownKeys(app.configSchema, readToml(APP_TOML))).toEqual([]);
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
    const raw = readToml(APP_TOML);
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
