// A local stand-in for a shop's Shopify Admin GraphQL API. Every document is
// parsed and validated against Shopify's published schema (admin-schema.ts)
// and run with graphql-js, so a misspelt field or a wrong variable type is
// refused as Shopify would refuse it. What it acts on follows Shopify's
// reference: userErrors, redeem codes added by an asynchronous bulk creation
// that is followed through its status query, a code another discount
// already holds, each query priced by Shopify's rules (admin-query-cost.ts):
// refused above 1,000 (MAX_COST_EXCEEDED), throttled when the bucket cannot
// pay, charged what its answer held, all reported in `extensions.cost`; the
// shop's orders (standin-orders.ts) and its customers with their store
// credit (standin-customers.ts). A test can make the next call of an
// operation meet a fault (refused, throttled, its answer lost before or after
// Shopify acted) or hold it mid-way, to stop or kill the app meanwhile.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { execute, GraphQLError, Kind, NoDeprecatedCustomRule, parse, validate, type DocumentNode, type OperationDefinitionNode } from "graphql";
import { DEFAULT_SCOPES } from "../../app/wiring/env.server";
import type { AdminForShop } from "../../app/platform/shopify-admin/admin-access";
import type { AdminGraphql } from "../../app/platform/shopify-admin/admin-graphql.server";
import { MAX_QUERY_COST, queryCost } from "./admin-query-cost";
import { adminSchema, STANDIN_API_VERSION } from "./admin-schema";
import { recordDeprecatedUse, type DeprecatedUse } from "./deprecated-fields";
import { StandInCustomers } from "./standin-customers";
import { StandInFlow } from "./standin-flow";
import { StandInMetafields } from "./standin-metafields";
import { StandInOrders } from "./standin-orders";
import { StandInTokens } from "./standin-oauth";

type Input = Record<string, unknown>;
type UserError = { field: string[] | null; message: string; code: string | null };

export interface StandInDiscount {
  id: string;
  kind: "basic" | "free_shipping";
  input: Input;
  active: boolean;
  /** By upper-case code. */
  codes: Map<string, { id: string; code: string }>;
}

interface BulkCreation {
  id: string;
  discountId: string;
  requested: string[];
  results: { code: string; redeemCodeId: string | null; errors: UserError[] }[] | null;
  createdAt: Date;
}

/**
 * What the next call of an operation meets: "refused" (GraphQL errors, nothing
 * done), "throttled", "lost" (the answer never comes and Shopify did nothing)
 * or "lost-after-acting" (Shopify acted, then the answer was lost).
 */
export type StandInFault = "refused" | "throttled" | "lost" | "lost-after-acting";

export interface StandInCall {
  operation: string;
  variables: Input;
  /** too-costly: requested above Shopify's 1,000 a query (MAX_COST_EXCEEDED), refused unrun. */
  outcome: "ok" | "throttled" | "too-costly" | "invalid" | "refused" | "lost" | "unauthorized";
}

/** A call held mid-way (holdNext): it has arrived; the test answers it or drops the connection. */
export interface HeldCall {
  arrived: Promise<void>;
  /** Shopify acts (if it has not yet) and answers. */
  answer(): void;
  /** The connection is dropped: no answer; Shopify acts only if it already had (held with `acted`). */
  drop(): void;
}

interface Hold {
  acted: boolean;
  arrive(): void;
  decision: Promise<"answer" | "drop">;
}

/** The answer of a call that never comes back. */
const DROPPED = Symbol("dropped");

const WEB_PIXEL_ID = "gid://shopify/WebPixel/1";

/** The setting names extensions/referral-pixel/shopify.extension.toml declares. */
function pixelSettingFields(): string[] {
  const toml = readFileSync(new URL("../../extensions/referral-pixel/shopify.extension.toml", import.meta.url), "utf8");
  return [...toml.matchAll(/^\[settings\.fields\.([A-Za-z0-9_]+)\]/gm)].map((m) => m[1]!);
}

const TAKEN_MESSAGE = "Code must be unique. Please try a different code.";

export class ShopifyAdminStandIn implements AdminGraphql {
  readonly schema = adminSchema();
  discounts = new Map<string, StandInDiscount>();
  segments = new Map<string, { name: string; query: string }>();
  bulkCreations = new Map<string, BulkCreation>();
  calls: StandInCall[] = [];
  /** The app's app-data metafields ("namespace.key" -> value), owned by its installation. */
  appMetafields = new Map<string, string>();
  readonly appInstallationId = "gid://shopify/AppInstallation/1";
  /** Documents the schema refused, with why: a test expects none from the app. */
  refused: { query: string; errors: string[] }[] = [];
  /** Deprecated fields and arguments the documents used (answered all the same, as Shopify does; setup.ts fails the test). */
  deprecated: DeprecatedUse[] = [];
  /** The bucket of the cost-based rate limit (Shopify's standard plan by default). */
  bucket = { maximumAvailable: 2_000, restoreRate: 100, currentlyAvailable: 2_000, at: Date.now() };
  /** The shop's orders (orders, ordersCount, order, refund). */
  readonly orders = new StandInOrders();
  /** The main theme's config/settings_data.json as the theme editor writes it; null: the app cannot read themes (no read_themes). */
  themeSettingsData: string | null = null;
  /** The settings of the app's web pixel, once connected (webPixelCreate); null: none. */
  webPixelSettings: string | null = null;
  /** The scopes the merchant has granted the app (currentAppInstallation.accessScopes): the install's, none of the optional ones. */
  grantedScopes: string[] = DEFAULT_SCOPES.split(",");
  /** write_pixels and read_customer_events granted; false: the pixel mutations are refused as Shopify refuses a missing scope. */
  pixelScopesGranted = true;
  /** Status queries answered "not done yet" before a bulk creation shows its results. */
  bulkPollsBeforeDone = 0;
  /** The currency the shop sells in (shop.currencyCode). */
  shopCurrency = "USD";
  /** The shop's token endpoint (POST /admin/oauth/access_token) and which access tokens open the API over HTTP. */
  readonly tokens = new StandInTokens(process.env.SHOPIFY_API_KEY ?? "", process.env.SHOPIFY_API_SECRET ?? "", DEFAULT_SCOPES);
  /** The shop's customers and their store credit. */
  readonly customers = new StandInCustomers((type) => this.gid(type), () => this.shopCurrency);
  /** Shopify Flow: the triggers it received (flowTriggerReceive). */
  readonly flow = new StandInFlow();
  /** The customers' metafields (metafieldsSet / metafieldsDelete on a Customer, the customer's metafield field). */
  readonly customerMetafields = new StandInMetafields(this.customers, () => process.env.SHOPIFY_API_KEY ?? "", () => this.grantedScopes);
  private faults = new Map<string, StandInFault[]>();
  private holds = new Map<string, Hold[]>();
  private nextId = 1;
  private throttleNextCalls = 0;
  private bulkPolls = new Map<string, number>();

  /** Codes held by a discount that is not the app's (the merchant's own promotion). */
  addForeignDiscount(title: string, codes: string[]): string {
    const id = this.gid("DiscountCodeNode");
    this.discounts.set(id, { id, kind: "basic", input: { title }, active: true, codes: new Map() });
    for (const code of codes) this.discounts.get(id)!.codes.set(code.toUpperCase(), { id: this.gid("DiscountRedeemCode"), code });
    return id;
  }

  setBucket(maximumAvailable: number, restoreRate: number): void {
    this.bucket = { maximumAvailable, restoreRate, currentlyAvailable: maximumAvailable, at: Date.now() };
  }

  /** The next `n` calls are answered THROTTLED whatever the bucket holds. */
  throttleNext(n: number): void {
    this.throttleNextCalls += n;
  }

  callsOf(operation: string, outcome?: StandInCall["outcome"]): StandInCall[] {
    return this.calls.filter((c) => c.operation === operation && (outcome === undefined || c.outcome === outcome));
  }

  /** Every code of a discount, as Shopify holds them. */
  codesOf(discountId: string): string[] {
    return [...(this.discounts.get(discountId)?.codes.values() ?? [])].map((c) => c.code);
  }

  /** The only discount whose title contains `text`. */
  discountTitled(text: string): StandInDiscount {
    const found = [...this.discounts.values()].filter((d) => String(d.input.title ?? "").includes(text));
    if (found.length !== 1) throw new Error(`${found.length} discounts titled with ${text}`);
    return found[0]!;
  }

  access(): AdminForShop {
    return async () => ({ ok: true, admin: this });
  }

  /** The next calls of `operation` meet these faults, one each. */
  failNext(operation: string, ...faults: StandInFault[]): void {
    this.faults.set(operation, [...(this.faults.get(operation) ?? []), ...faults]);
  }

  /**
   * Holds the next call of `operation` until the test answers or drops it.
   * `acted`: Shopify carries it out as it arrives and only the answer waits
   * (a call that landed, whose answer is on its way); otherwise nothing is
   * done until it is answered.
   */
  holdNext(operation: string, { acted }: { acted: boolean }): HeldCall {
    let arrive!: () => void;
    let decide!: (decision: "answer" | "drop") => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const decision = new Promise<"answer" | "drop">((resolve) => (decide = resolve));
    this.holds.set(operation, [...(this.holds.get(operation) ?? []), { acted, arrive, decision }]);
    return { arrived, answer: () => decide("answer"), drop: () => decide("drop") };
  }

  async graphql(query: string, options: { variables?: Input } = {}): Promise<Response> {
    const body = await this.respond(query, options.variables ?? {});
    if (body === DROPPED) throw new TypeError("fetch failed");
    return Response.json(body);
  }

  /** A call with its fault or hold, if the test set one. */
  private async respond(query: string, variables: Input): Promise<Record<string, unknown> | typeof DROPPED> {
    const name = operationNameOf(query);
    const hold = this.holds.get(name)?.shift();
    if (hold) {
      hold.arrive();
      const body = hold.acted ? this.answer(query, variables) : undefined;
      if ((await hold.decision) === "answer") return body ?? this.answer(query, variables);
      if (!hold.acted) this.calls.push({ operation: name, variables, outcome: "lost" });
      return DROPPED;
    }
    const fault = this.faults.get(name)?.shift();
    switch (fault) {
      case "lost":
        this.calls.push({ operation: name, variables, outcome: "lost" });
        return DROPPED;
      case "refused":
        this.calls.push({ operation: name, variables, outcome: "refused" });
        return { errors: [{ message: `Access denied for ${name}. Required access: an access scope the app lacks.`, extensions: { code: "ACCESS_DENIED" } }] };
      case "throttled":
        this.throttleNextCalls += 1;
        return this.answer(query, variables);
      case "lost-after-acting":
        this.answer(query, variables);
        return DROPPED;
      default:
        return this.answer(query, variables);
    }
  }

  answer(query: string, variables: Input): Record<string, unknown> {
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      return this.refuse(query, variables, [(error as GraphQLError).message]);
    }
    const invalid = validate(this.schema, document);
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const name = operation?.name?.value ?? "anonymous";
    if (invalid.length > 0) return this.refuse(query, variables, invalid.map((e) => e.message), name);
    const deprecated = validate(this.schema, document, [NoDeprecatedCustomRule]);
    if (deprecated.length > 0) {
      const use = { operation: name, messages: deprecated.map((e) => e.message) };
      this.deprecated.push(use);
      recordDeprecatedUse(use);
    }

    const cost = queryCost(this.schema, document, variables);
    if (cost > MAX_QUERY_COST) {
      // Refused before it runs, whatever the bucket holds; nothing is charged.
      this.refused.push({ query, errors: [`requested at ${cost} points`] });
      this.calls.push({ operation: name, variables, outcome: "too-costly" });
      return { errors: [maxCostExceeded(cost)] };
    }
    this.refill();
    const throttled = this.throttleNextCalls > 0 || this.bucket.currentlyAvailable < cost;
    if (throttled) {
      if (this.throttleNextCalls > 0) this.throttleNextCalls -= 1;
      this.calls.push({ operation: name, variables, outcome: "throttled" });
      return {
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
        extensions: { cost: { requestedQueryCost: cost, actualQueryCost: null, throttleStatus: this.throttleStatus() } },
      };
    }
    this.bucket.currentlyAvailable -= cost;
    this.calls.push({ operation: name, variables, outcome: "ok" });
    const result = execute({ schema: this.schema, document, rootValue: this.root(), variableValues: variables }) as {
      data?: unknown;
      errors?: readonly GraphQLError[];
    };
    if (result.errors?.length) {
      this.refused.push({ query, errors: result.errors.map((e) => e.message) });
      return { errors: result.errors.map((e) => ({ message: e.message })) };
    }
    // Charged what the answer held: the bucket gets back what was requested beyond it.
    const actual = operation!.operation === "mutation" ? cost : queryCost(this.schema, document, variables, result.data);
    this.bucket.currentlyAvailable += cost - actual;
    return { data: result.data, extensions: { cost: { requestedQueryCost: cost, actualQueryCost: actual, throttleStatus: this.throttleStatus() } } };
  }

  private refuse(query: string, variables: Input, errors: string[], operation = "invalid"): Record<string, unknown> {
    this.refused.push({ query, errors });
    this.calls.push({ operation, variables, outcome: "invalid" });
    return { errors: errors.map((message) => ({ message, extensions: { code: "GRAPHQL_VALIDATION_FAILED" } })) };
  }

  private refill(): void {
    const now = Date.now();
    const restored = ((now - this.bucket.at) / 1_000) * this.bucket.restoreRate;
    this.bucket.currentlyAvailable = Math.min(this.bucket.maximumAvailable, this.bucket.currentlyAvailable + restored);
    this.bucket.at = now;
  }

  private throttleStatus() {
    return {
      maximumAvailable: this.bucket.maximumAvailable,
      currentlyAvailable: Math.floor(this.bucket.currentlyAvailable),
      restoreRate: this.bucket.restoreRate,
    };
  }

  private gid(type: string): string {
    return `gid://shopify/${type}/${this.nextId++}`;
  }

  private holderOf(code: string): StandInDiscount | undefined {
    const key = code.toUpperCase();
    return [...this.discounts.values()].find((d) => d.codes.has(key));
  }

  private codesConnection(discount: StandInDiscount) {
    return ({ first = 50 }: { first?: number }) => ({ nodes: [...discount.codes.values()].slice(0, first) });
  }

  private node(discount: StandInDiscount) {
    return {
      id: discount.id,
      codeDiscount: {
        __typename: discount.kind === "basic" ? "DiscountCodeBasic" : "DiscountCodeFreeShipping",
        title: discount.input.title,
        codes: this.codesConnection(discount),
      },
    };
  }

  /** Checks of a discount's input that Shopify answers with userErrors. */
  private inputErrors(kind: StandInDiscount["kind"], input: Input, root: string, creating: boolean): UserError[] {
    const errors: UserError[] = [];
    const required = creating ? ["title", "code", "startsAt", "context", ...(kind === "basic" ? ["customerGets"] : [])] : [];
    for (const field of required) {
      if (input[field] === undefined || input[field] === null || input[field] === "") {
        errors.push({ field: [root, field], message: `${field} can't be blank`, code: "BLANK" });
      }
    }
    const percentage = (input.customerGets as { value?: { percentage?: number } } | undefined)?.value?.percentage;
    if (percentage !== undefined && (percentage <= 0 || percentage > 1)) {
      errors.push({ field: [root, "customerGets", "value", "percentage"], message: "Value must be between 0.0 and 1.0", code: "VALUE_OUTSIDE_RANGE" });
    }
    if (kind === "free_shipping" && (input.combinesWith as { shippingDiscounts?: boolean } | undefined)?.shippingDiscounts) {
      errors.push({ field: [root, "combinesWith"], message: "Shipping discounts can't combine with shipping discounts", code: "INVALID_COMBINES_WITH_FOR_DISCOUNT_CLASS" });
    }
    if (input.code && this.holderOf(String(input.code))) errors.push({ field: [root, "code"], message: TAKEN_MESSAGE, code: "TAKEN" });
    return errors;
  }

  private create(kind: StandInDiscount["kind"], input: Input, root: string) {
    const errors = this.inputErrors(kind, input, root, true);
    if (errors.length > 0) return { codeDiscountNode: null, userErrors: errors };
    const { code, ...rest } = input;
    const discount: StandInDiscount = { id: this.gid("DiscountCodeNode"), kind, input: rest, active: true, codes: new Map() };
    discount.codes.set(String(code).toUpperCase(), { id: this.gid("DiscountRedeemCode"), code: String(code) });
    this.discounts.set(discount.id, discount);
    return { codeDiscountNode: this.node(discount), userErrors: [] };
  }

  private update(kind: StandInDiscount["kind"], id: string, input: Input, root: string) {
    const discount = this.discounts.get(id);
    if (!discount || discount.kind !== kind) return { codeDiscountNode: null, userErrors: [{ field: ["id"], message: "Discount does not exist", code: null }] };
    const errors = this.inputErrors(kind, input, root, false);
    if (errors.length > 0) return { codeDiscountNode: null, userErrors: errors };
    discount.input = { ...discount.input, ...input };
    return { codeDiscountNode: this.node(discount), userErrors: [] };
  }

  private runBulkCreation(creation: BulkCreation): void {
    const discount = this.discounts.get(creation.discountId);
    creation.results = creation.requested.map((code) => {
      if (!discount) return { code, redeemCodeId: null, errors: [{ field: ["code"], message: "Discount does not exist", code: "INVALID" }] };
      if (this.holderOf(code)) return { code, redeemCodeId: null, errors: [{ field: ["code"], message: TAKEN_MESSAGE, code: "TAKEN" }] };
      const redeem = { id: this.gid("DiscountRedeemCode"), code };
      discount.codes.set(code.toUpperCase(), redeem);
      return { code, redeemCodeId: redeem.id, errors: [] };
    });
  }

  private bulkCreationView(creation: BulkCreation) {
    const polls = (this.bulkPolls.get(creation.id) ?? 0) + 1;
    this.bulkPolls.set(creation.id, polls);
    const done = creation.results !== null && polls > this.bulkPollsBeforeDone;
    const results = done ? creation.results! : [];
    return {
      id: creation.id,
      done,
      codesCount: creation.requested.length,
      importedCount: results.filter((r) => r.errors.length === 0).length,
      failedCount: results.filter((r) => r.errors.length > 0).length,
      createdAt: creation.createdAt.toISOString(),
      codes: ({ first = 50, after }: { first?: number; after?: string | null }) => {
        const start = after ? Number(after) : 0;
        const page = results.slice(start, start + first);
        const end = start + page.length;
        return {
          nodes: page.map((r) => ({ code: r.code, discountRedeemCode: r.redeemCodeId ? { id: r.redeemCodeId, code: r.code } : null, errors: r.errors })),
          pageInfo: { hasNextPage: end < results.length, endCursor: page.length > 0 ? String(end) : null, hasPreviousPage: start > 0, startCursor: String(start) },
        };
      },
    };
  }

  private root(): Record<string, (args: Input) => unknown> {
    return {
      discountCodeBasicCreate: ({ basicCodeDiscount }) => this.create("basic", basicCodeDiscount as Input, "basicCodeDiscount"),
      discountCodeFreeShippingCreate: ({ freeShippingCodeDiscount }) =>
        this.create("free_shipping", freeShippingCodeDiscount as Input, "freeShippingCodeDiscount"),
      discountCodeBasicUpdate: ({ id, basicCodeDiscount }) => this.update("basic", String(id), basicCodeDiscount as Input, "basicCodeDiscount"),
      discountCodeFreeShippingUpdate: ({ id, freeShippingCodeDiscount }) =>
        this.update("free_shipping", String(id), freeShippingCodeDiscount as Input, "freeShippingCodeDiscount"),
      discountCodeActivate: ({ id }) => this.setActive(String(id), true),
      discountCodeDeactivate: ({ id }) => this.setActive(String(id), false),
      discountCodeDelete: ({ id }) => {
        if (!this.discounts.delete(String(id))) return { deletedCodeDiscountId: null, userErrors: [{ field: ["id"], message: "Discount does not exist", code: null }] };
        return { deletedCodeDiscountId: id, userErrors: [] };
      },
      segmentCreate: ({ name, query }) => {
        const id = this.gid("Segment");
        this.segments.set(id, { name: String(name), query: String(query) });
        return { segment: { id, name, query }, userErrors: [] };
      },
      discountRedeemCodeBulkAdd: ({ discountId, codes }) => {
        const list = (codes as { code: string }[]).map((c) => c.code);
        if (!this.discounts.has(String(discountId))) {
          return { bulkCreation: null, userErrors: [{ field: ["discountId"], message: "Discount does not exist", code: "INVALID" }] };
        }
        if (list.length > 250) {
          return { bulkCreation: null, userErrors: [{ field: ["codes"], message: "Codes can't exceed 250 per request", code: "TOO_LONG" }] };
        }
        const creation: BulkCreation = { id: this.gid("DiscountRedeemCodeBulkCreation"), discountId: String(discountId), requested: list, results: null, createdAt: new Date() };
        this.bulkCreations.set(creation.id, creation);
        // Shopify queues the creation and answers at once; it runs a moment later.
        setTimeout(() => this.runBulkCreation(creation), 1);
        return { bulkCreation: { id: creation.id, done: false, codesCount: list.length, importedCount: 0, failedCount: 0 }, userErrors: [] };
      },
      discountRedeemCodeBulkCreation: ({ id }) => {
        const creation = this.bulkCreations.get(String(id));
        return creation ? this.bulkCreationView(creation) : null;
      },
      codeDiscountNodeByCode: ({ code }) => {
        const holder = this.holderOf(String(code));
        return holder ? this.node(holder) : null;
      },
      currentAppInstallation: () => ({ id: this.appInstallationId, accessScopes: this.grantedScopes.map((handle) => ({ handle })) }),
      shop: () => ({ currencyCode: this.shopCurrency }),
      ...this.orders.resolvers(),
      ...this.customers.resolvers(),
      ...this.flow.resolvers(),
      themes: ({ roles }) => {
        if (this.themeSettingsData === null) throw new Error("Access denied for themes field. Required access: `read_themes` access scope.");
        const main = { id: "gid://shopify/OnlineStoreTheme/1", role: "MAIN", name: "Dawn" };
        const wanted = roles as string[] | undefined;
        const files = ({ filenames }: { filenames?: string[] }) => ({
          nodes: (filenames ?? ["config/settings_data.json"]).includes("config/settings_data.json")
            ? [{ filename: "config/settings_data.json", body: { __typename: "OnlineStoreThemeFileBodyText", content: this.themeSettingsData } }]
            : [],
        });
        return { nodes: !wanted || wanted.includes("MAIN") ? [{ ...main, files }] : [] };
      },
      webPixel: () => {
        if (this.webPixelSettings === null) throw new Error("No web pixel was found for this app.");
        return { id: WEB_PIXEL_ID, settings: this.webPixelSettings };
      },
      webPixelCreate: ({ webPixel }) => {
        this.requirePixelScopes();
        if (this.webPixelSettings !== null) return { webPixel: null, userErrors: [{ field: ["webPixel"], message: "Web pixel is taken.", code: "TAKEN" }] };
        return this.storePixelSettings((webPixel as Input).settings);
      },
      webPixelUpdate: ({ id, webPixel }) => {
        this.requirePixelScopes();
        if (this.webPixelSettings === null || id !== WEB_PIXEL_ID) return { webPixel: null, userErrors: [{ field: ["id"], message: "Web pixel not found.", code: "NOT_FOUND" }] };
        return this.storePixelSettings((webPixel as Input).settings);
      },
      metafieldsSet: ({ metafields }) => {
        if (this.customerMetafields.isForCustomers(metafields)) return this.customerMetafields.set({ metafields });
        const list = metafields as { ownerId: string; namespace?: string; key: string; value: string }[];
        const wrong = list.findIndex((m) => m.ownerId !== this.appInstallationId || m.value === "");
        if (wrong >= 0) return { metafields: null, userErrors: [{ field: ["metafields", String(wrong)], message: "Owner or value is invalid", code: "INVALID_VALUE", elementIndex: wrong }] };
        for (const m of list) this.appMetafields.set(`${m.namespace}.${m.key}`, m.value);
        return { metafields: list.map((_, i) => ({ id: `gid://shopify/Metafield/${i + 1}` })), userErrors: [] };
      },
      metafieldsDelete: (args) => this.customerMetafields.delete(args),
      discountCodeRedeemCodeBulkDelete: ({ discountId, ids }) => {
        const discount = this.discounts.get(String(discountId));
        if (!discount) return { job: null, userErrors: [{ field: ["discountId"], message: "Discount does not exist", code: "INVALID" }] };
        const wanted = new Set(ids as string[]);
        for (const [key, redeem] of discount.codes) if (wanted.has(redeem.id)) discount.codes.delete(key);
        return { job: { id: this.gid("Job"), done: false }, userErrors: [] };
      },
    };
  }

  private requirePixelScopes(): void {
    if (!this.pixelScopesGranted) throw new Error("Access denied for webPixelCreate field. Required access: `write_pixels` access scope. Also: `read_customer_events` access scope.");
  }

  /** As Shopify checks them: JSON text whose keys and text values match the extension's [settings] (its shopify.extension.toml). */
  private storePixelSettings(settings: unknown) {
    let parsed: unknown;
    try {
      parsed = typeof settings === "string" ? JSON.parse(settings) : settings;
    } catch {
      return { webPixel: null, userErrors: [{ field: ["webPixel", "settings"], message: "Settings is not valid JSON.", code: "INVALID_CONFIGURATION_JSON" }] };
    }
    const fields = pixelSettingFields();
    const entries = parsed && typeof parsed === "object" ? Object.entries(parsed as Input) : [];
    const valid = entries.length > 0 && entries.every(([key, value]) => fields.includes(key) && typeof value === "string");
    if (!valid) return { webPixel: null, userErrors: [{ field: ["webPixel", "settings"], message: "Settings do not match the extension's settings definition.", code: "INVALID_SETTINGS" }] };
    this.webPixelSettings = JSON.stringify(parsed);
    return { webPixel: { id: WEB_PIXEL_ID, settings: this.webPixelSettings }, userErrors: [] };
  }

  private setActive(id: string, active: boolean) {
    const discount = this.discounts.get(id);
    if (!discount) return { codeDiscountNode: null, userErrors: [{ field: ["id"], message: "Discount does not exist", code: null }] };
    discount.active = active;
    return { codeDiscountNode: this.node(discount), userErrors: [] };
  }

  /**
   * Serves the stand-in over HTTP the way Shopify does (POST /admin/api/<version>/graphql.json, a
   * call whose access token does not open it answered 401), with the token endpoint, on loopback.
   */
  async serve(): Promise<{ origin: string; close(): Promise<void> }> {
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        if (req.method === "POST" && req.url === "/admin/oauth/access_token") {
          // The app's library calls https://<shop>/admin/oauth/access_token; the app sends the shop's host along.
          const shop = String(req.headers["x-forwarded-host"] ?? req.headers.host ?? "");
          const answer = this.tokens.answer(shop, JSON.parse(Buffer.concat(chunks).toString("utf8")) as Input);
          res.writeHead(answer.status, { "Content-Type": "application/json" }).end(JSON.stringify(answer.body));
          return;
        }
        if (req.method !== "POST" || req.url !== `/admin/api/${STANDIN_API_VERSION}/graphql.json`) {
          res.writeHead(404).end();
          return;
        }
        const access = this.tokens.check(req.headers["x-shopify-access-token"] as string | undefined);
        if (access !== "ok") {
          this.calls.push({ operation: operationNameOf(JSON.parse(Buffer.concat(chunks).toString("utf8")).query ?? ""), variables: {}, outcome: "unauthorized" });
          res.writeHead(401, { "Content-Type": "application/json" }).end(JSON.stringify({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" }));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { query: string; variables?: Input };
        const before = this.deprecated.length;
        const answer = await this.respond(body.query, body.variables ?? {});
        // Shopify's header on an answer that used a deprecated field.
        const headers: Record<string, string> = { "Content-Type": "application/json" };
        if (this.deprecated.length > before) headers["X-Shopify-API-Deprecated-Reason"] = "https://shopify.dev/api/usage/versioning#deprecation-practices";
        // A dropped call closes the connection unanswered; a caller that went away (killed) gets nothing.
        if (answer === DROPPED) req.socket.destroy();
        else if (!res.destroyed) res.writeHead(200, headers).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }
}

/** Shopify's answer to a query requested above the single-query limit (its code, words and figures). */
function maxCostExceeded(cost: number) {
  return {
    message:
      `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).\n\n` +
      "See https://shopify.dev/concepts/about-apis/rate-limits for more information on how the\ncost of a query is calculated.\n\n" +
      "To query larger amounts of data with fewer limits, bulk operations should be used instead.\n" +
      "See https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n",
    extensions: { code: "MAX_COST_EXCEEDED", cost, maxCost: MAX_QUERY_COST, documentation: "https://shopify.dev/api/usage/rate-limits" },
  };
}

/** The operation's name, as the calls are recorded by. */
function operationNameOf(query: string): string {
  try {
    const operation = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    return operation?.name?.value ?? "anonymous";
  } catch {
    return "invalid";
  }
}
