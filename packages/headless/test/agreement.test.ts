// The kit keeps a code exactly as the theme's tracking embed does. The embed is
// a plain script Shopify serves as it is (no build step), so it cannot import
// the kit: this test holds the two to the same names, defaults and rule, the
// rule by running the embed's own script (in a VM with a stand-in window) and
// the kit's landOn on the same generated page views, step by step.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createContext, Script } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REFERRAL_CAMPAIGN_ATTRIBUTE, REFERRAL_CODE_ATTRIBUTE } from "../../../app/domains/referrals/order-event";
import { CAMPAIGN_ATTRIBUTE, CODE_ATTRIBUTE, DEFAULT_SETTINGS, landOn, STORAGE_KEY, trackingSettings, type Attribution, type KeptReferral } from "../src";

const themeFile = (name: string) => readFileSync(fileURLToPath(new URL(`../../../extensions/referral-theme/${name}`, import.meta.url)), "utf8");
const embedScript = new Script(themeFile("assets/referral-tracking.js"));

interface Setting {
  id?: string;
  default?: unknown;
  min?: number;
  max?: number;
}

function embedSettings(): Record<string, Setting> {
  const liquid = themeFile("blocks/referral-tracking.liquid");
  const schema = JSON.parse(liquid.slice(liquid.indexOf("{% schema %}") + "{% schema %}".length, liquid.indexOf("{% endschema %}"))) as { settings: Setting[] };
  return Object.fromEntries(schema.settings.filter((s) => s.id).map((s) => [s.id!, s]));
}

// One VM context for every page view (making one per view was most of the test's time): each view
// points it at its storage, its URL and its clock, then runs the embed's script in it again.
const page = {
  storage: new Map<string, string>(),
  search: "",
  now: 0,
  attribution: "first_touch" as Attribution,
};
const never = new Promise(() => undefined);
const embedContext = createContext({
  location: {
    get search() {
      return page.search;
    },
    pathname: "/",
    protocol: "https:",
  },
  localStorage: {
    getItem: (key: string) => page.storage.get(key) ?? null,
    setItem: (key: string, value: string) => void page.storage.set(key, value),
    removeItem: (key: string) => void page.storage.delete(key),
  },
  document: {
    currentScript: {
      get dataset() {
        return { attribution: page.attribution, lifetimeDays: "30", offerCampaigns: "none" };
      },
    },
    readyState: "complete",
    cookie: "",
    addEventListener() {},
  },
  // Without the Customer Privacy API the embed runs at once; the cart is not this test's.
  window: { addEventListener() {} },
  fetch: () => never,
  setTimeout: (run: () => void) => run(),
  URLSearchParams,
  JSON,
  Number,
  Date: class extends Date {
    static override now = () => page.now;
  },
});

/** One page view of the embed's script, on `storage` (its localStorage), at `now`; its kept record after. */
function embedView(storage: Map<string, string>, search: string, attribution: Attribution, now: number): KeptReferral | null {
  Object.assign(page, { storage, search, attribution, now });
  embedScript.runInContext(embedContext);
  const record = JSON.parse(storage.get(STORAGE_KEY) ?? "null") as { c: string; k: string; x: number } | null;
  return record && { code: record.c, campaign: record.k, expiresAt: record.x };
}

describe("the kit and the theme embed", () => {
  it("write the attributes the app's order reader reads, and keep the code under the same key", () => {
    expect([CODE_ATTRIBUTE, CAMPAIGN_ATTRIBUTE]).toEqual([REFERRAL_CODE_ATTRIBUTE, REFERRAL_CAMPAIGN_ATTRIBUTE]);
    const script = themeFile("assets/referral-tracking.js");
    expect(script).toContain(`var ATTR_CODE = '${CODE_ATTRIBUTE}';`);
    expect(script).toContain(`var ATTR_CAMPAIGN = '${CAMPAIGN_ATTRIBUTE}';`);
    expect(script).toContain(`var KEY = '${STORAGE_KEY}';`);
  });

  it("have the same defaults and the same lifetime range", () => {
    const settings = embedSettings();
    expect({
      codeParam: settings.code_param.default,
      campaignParam: settings.campaign_param.default,
      lifetimeDays: settings.lifetime_days.default,
      attribution: settings.attribution.default,
    }).toEqual(DEFAULT_SETTINGS);
    const { min, max } = settings.lifetime_days;
    expect(trackingSettings({ lifetimeDays: min }).lifetimeDays).toBe(min);
    expect(trackingSettings({ lifetimeDays: max }).lifetimeDays).toBe(max);
    expect(trackingSettings({ lifetimeDays: min! - 1 }).lifetimeDays).toBe(DEFAULT_SETTINGS.lifetimeDays);
    expect(trackingSettings({ lifetimeDays: max! + 1 }).lifetimeDays).toBe(DEFAULT_SETTINGS.lifetimeDays);
  });

  it("keep, refresh, replace and drop a code alike, page view after page view (first and last touch)", () => {
    const view = fc.record({
      code: fc.constantFrom(null, "ALICE10", "BOB10", " ALICE10 ", "<b>", "x".repeat(101), ""),
      campaign: fc.constantFrom(null, "1001", "1002"),
      daysLater: fc.constantFrom(0, 1, 29, 30, 31),
    });
    fc.assert(
      fc.property(fc.constantFrom<Attribution>("first_touch", "last_touch"), fc.array(view, { minLength: 1, maxLength: 8 }), (attribution, views) => {
        const storage = new Map<string, string>();
        const settings = trackingSettings({ attribution });
        let kept: KeptReferral | null = null;
        let now = Date.UTC(2026, 10, 1);
        for (const { code, campaign, daysLater } of views) {
          now += daysLater * 86_400_000;
          const params = new URLSearchParams();
          if (code !== null) params.set("mbsy", code);
          if (campaign !== null) params.set("campaignid", campaign);
          const search = params.size ? `?${params}` : "";
          kept = landOn(new URL(`https://shop.example/${search}`), kept, settings, now).kept;
          expect(embedView(storage, search, attribution, now)).toEqual(kept);
        }
      }),
      { numRuns: 300 },
    );
  });
});
