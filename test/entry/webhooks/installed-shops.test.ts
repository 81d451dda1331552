import { describe, expect, it } from "vitest";
import { cachedShopCheck, INSTALLED_KEPT_MS, NOT_INSTALLED_KEPT_MS } from "../../../app/entry/webhooks/installed-shops";

// Which shops have the app, asked before an order webhook's body is read:
// cheap (cached), and a shop that has just installed is refused only briefly.

function counted(installed: Set<string>) {
  const asked: string[] = [];
  const lookup = async (shop: string) => {
    asked.push(shop);
    return installed.has(shop);
  };
  return { asked, lookup };
}

describe("the installed-shops check", () => {
  it("asks the database once a minute for a shop that has the app, and once for deliveries that arrive together", async () => {
    let now = 0;
    const { asked, lookup } = counted(new Set(["a.myshopify.com"]));
    const check = cachedShopCheck(lookup, () => now);
    expect(await Promise.all([check("a.myshopify.com"), check("a.myshopify.com"), check("a.myshopify.com")])).toEqual([true, true, true]);
    now += INSTALLED_KEPT_MS - 1;
    expect(await check("a.myshopify.com")).toBe(true);
    expect(asked).toEqual(["a.myshopify.com"]);
    now += 1;
    expect(await check("a.myshopify.com")).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it("takes a shop at once in the process that saw it install (forget), whatever it knew of it", async () => {
    const installed = new Set<string>();
    const { asked, lookup } = counted(installed);
    const check = cachedShopCheck(lookup, () => 0);
    expect(await check("back.myshopify.com")).toBe(false);
    installed.add("back.myshopify.com");
    check.forget("back.myshopify.com");
    expect(await check("back.myshopify.com")).toBe(true);
    expect(asked).toEqual(["back.myshopify.com", "back.myshopify.com"]);
  });

  it("keeps a shop without the app refused for a few seconds only, so one that has just installed is soon taken", async () => {
    let now = 0;
    const installed = new Set<string>();
    const { asked, lookup } = counted(installed);
    const check = cachedShopCheck(lookup, () => now);
    expect(await check("new.myshopify.com")).toBe(false);
    installed.add("new.myshopify.com");
    now += NOT_INSTALLED_KEPT_MS - 1;
    expect(await check("new.myshopify.com")).toBe(false);
    now += 1;
    expect(await check("new.myshopify.com")).toBe(true);
    expect(asked).toEqual(["new.myshopify.com", "new.myshopify.com"]);
  });

  it("keeps no answer when the database could not give one", async () => {
    let fail = true;
    const check = cachedShopCheck(async () => {
      if (fail) throw new Error("the database is restarting");
      return true;
    });
    await expect(check("a.myshopify.com")).rejects.toThrow(/restarting/);
    fail = false;
    expect(await check("a.myshopify.com")).toBe(true);
  });
});
