import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXTENSION_HANDLES, TARGETS, extensionPlacements, setupLinks } from "../../../app/entry/admin/extension-status";
import { appExtensions } from "../../support/app-bridge-standin";

describe("the extensions' placements from App Bridge's app.extensions()", () => {
  it("reads the embed and the block from the theme extension, the UI extensions from their targets", () => {
    expect(extensionPlacements(appExtensions({ embed: true, orderStatus: true }))).toEqual({
      embed: "on",
      linksBlock: "off",
      thankYou: "off",
      orderStatus: "on",
      profile: "off",
      posTile: "off",
    });
    expect(extensionPlacements(appExtensions({ linksBlock: true, thankYou: true, profile: true, posTile: true }))).toEqual({
      embed: "off",
      linksBlock: "on",
      thankYou: "on",
      orderStatus: "off",
      profile: "on",
      posTile: "on",
    });
  });

  it("says a block the published theme can't take is unknown, and an extension not released yet is off", () => {
    const infos = appExtensions({});
    const theme = infos[0]!;
    if (theme.type !== "theme_app_extension") throw new Error("the theme extension comes first");
    theme.activations[1]!.status = "unavailable";
    expect(extensionPlacements(infos).linksBlock).toBe("unknown");
    // An app whose extensions are not deployed: an empty list, as App Bridge documents.
    expect(extensionPlacements([])).toEqual({ embed: "off", linksBlock: "off", thankYou: "off", orderStatus: "off", profile: "off", posTile: "off" });
  });

  it("builds Shopify's theme editor deep links with the app's client id and the blocks' handles", () => {
    const links = setupLinks("demo-outfitters.myshopify.com", "1a2b3c");
    expect(links.embed).toBe("https://demo-outfitters.myshopify.com/admin/themes/current/editor?context=apps&template=index&activateAppId=1a2b3c/referral-tracking");
    expect(links.linksBlock).toBe(
      "https://demo-outfitters.myshopify.com/admin/themes/current/editor?template=index&addAppBlockId=1a2b3c/referral-links&target=newAppsSection",
    );
  });

  it("names the handles and targets the extensions' own files declare", () => {
    const file = (name: string) => new URL(`../../../extensions/${name}`, import.meta.url);
    expect(existsSync(file(`referral-theme/blocks/${EXTENSION_HANDLES.embed}.liquid`))).toBe(true);
    expect(existsSync(file(`referral-theme/blocks/${EXTENSION_HANDLES.linksBlock}.liquid`))).toBe(true);
    const checkout = readFileSync(file("checkout-share-link/shopify.extension.toml"), "utf8");
    expect(checkout).toContain(`handle = "${EXTENSION_HANDLES.checkout}"`);
    expect(checkout).toContain(`target = "${TARGETS.thankYou}"`);
    expect(checkout).toContain(`target = "${TARGETS.orderStatus}"`);
    const account = readFileSync(file("customer-account/shopify.extension.toml"), "utf8");
    expect(account).toContain(`handle = "${EXTENSION_HANDLES.account}"`);
    expect(account).toContain(`target = "${TARGETS.profile}"`);
    const pos = readFileSync(file("pos-referral/shopify.extension.toml"), "utf8");
    expect(pos).toContain(`handle = "${EXTENSION_HANDLES.pos}"`);
    expect(pos).toContain(`target = "${TARGETS.posTile}"`);
  });
});
