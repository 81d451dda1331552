// The Commissions page's rows in real Chromium, as a merchant uses them: what
// the app's own rows (SelectableRow) and selection bar (SelectionBar) must
// keep of Polaris' IndexTable. Selecting the page, a click on a row,
// shift-click ranges, the keyboard, the names a screen reader reads, the
// bar's count and its bulk actions, "select all" across pages.
import "./browser-env";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { beforeEach, expect, it } from "vitest";
import { afterPaints, artifactsDir, describeInBrowser, watchNetwork } from "../../support/browser";
import { sandboxCommissions } from "../../support/pipeline";
import { useAdminInBrowser } from "./admin-in-browser";
import { connectWithPendingCommissions } from "./fixtures";

/** Added pending commissions; with the seed's five (two pending) the list has two pages of 25. */
const ADDED = 30;

const admin = useAdminInBrowser({
  seed: ({ sandbox }) => connectWithPendingCommissions(sandbox, ADDED),
  // SELECT_ALL_BUILD_ROOT: another checkout, built, e.g. the commit before a change, to compare.
  buildFrom: process.env.SELECT_ALL_BUILD_ROOT,
  pageReaches: "every loopback server",
});
const { sandbox, browser } = admin;
let page: Page;
beforeEach(() => {
  ({ page } = admin);
});

async function open(pathname: string, viewport = { width: 1200, height: 900 }, selectable = true): Promise<void> {
  await page.setViewportSize(viewport);
  await admin.open(pathname);
  // Hydrated: the table's effect has measured the checkbox column (a click on the server's HTML alone does nothing).
  if (!selectable) return;
  await page.waitForFunction(() => document.querySelector<HTMLElement>(".rb-commissions")?.style.getPropertyValue("--pc-checkbox-offset"), undefined, {
    timeout: 30_000,
  });
}

const bodyRows = () => page.locator("tbody tr");
/** The bar's "N selected", where it shows (Polaris keeps a hidden bar of its own in the table). */
const barCount = () => page.getByText(/^\d+ selected$/).filter({ visible: true });
const rowCheckbox = (row: Locator) => row.locator("td").first().getByRole("checkbox");
const pendingBoxes = () => page.locator("tbody").getByRole("checkbox", { disabled: false });
/** The checked state of each pending row's checkbox, top to bottom. */
const ticks = () => pendingBoxes().evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked));
/**
 * The positions (among pending rows) of the rows the page paints as selected:
 * in Polaris' selected colour, or its hovered-selected one under the pointer.
 */
const selectedPositions = () =>
  page.locator("tbody tr").evaluateAll((rows) => {
    const colourOf = (token: string) => {
      const probe = document.body.appendChild(document.createElement("div"));
      probe.style.backgroundColor = `var(${token})`;
      const colour = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return colour;
    };
    const selected = [colourOf("--p-color-bg-surface-selected"), colourOf("--p-color-bg-surface-brand-hover")];
    return rows
      .filter((row) => !row.querySelector("input[type=checkbox]:disabled"))
      .flatMap((row, at) => (selected.includes(getComputedStyle(row).backgroundColor) ? [at] : []));
  });
/** The background of each row's sticky cells (the first two and the last), when it differs from the row's. */
const stickyCellsOffColour = () =>
  page.locator("tbody tr").evaluateAll((rows) =>
    rows.flatMap((row) => {
      const cells = [...row.children];
      const own = getComputedStyle(row).backgroundColor;
      return [cells[0], cells[1], cells.at(-1)]
        .map((cell) => getComputedStyle(cell!).backgroundColor)
        .filter((colour) => colour !== own && colour !== "rgba(0, 0, 0, 0)")
        .map((colour) => `${row.id}: ${colour} on ${own}`);
    })
  );

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(artifactsDir, name) });
}

describeInBrowser("the Commissions page's rows in Chromium", () => {
  it("selects the page from the header: every pending row, with Polaris' selected look, and the bar counts them", async () => {
    await open("/app/commissions");
    const pending = await pendingBoxes().count();
    expect(pending).toBeGreaterThan(10);
    // The rows that can't be selected (approved, denied) have a disabled box.
    expect(await page.locator("tbody").getByRole("checkbox", { disabled: true }).count()).toBe((await bodyRows().count()) - pending);

    // WHEN the merchant clicks the header's checkbox (a real click in its middle, as the bench does)
    const header = page.locator("thead input[type=checkbox]").first();
    const box = (await header.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // THEN every pending row is ticked and shows as selected, and the bar says how many, with its bulk actions
    await expect.poll(ticks).toEqual(Array(pending).fill(true));
    expect(await selectedPositions()).toEqual([...Array(pending).keys()]);
    expect(await stickyCellsOffColour()).toEqual([]);
    expect(await page.getByText(`${pending} selected`, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Approve", exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: /^Select all 25\+ commissions/ }).isVisible()).toBe(true);
    await shot("admin-commissions-rows-selected.png");

    // The bar's own box, over the header's, says the whole page is selected
    const barBox = page.getByRole("checkbox", { name: "Deselect all 25 commissions", exact: true });
    expect(await barBox.isChecked()).toBe(true);

    // WHEN the merchant clicks the bar's checkbox, THEN nothing is selected, and the header's box is back
    await barBox.click();
    await expect.poll(ticks).toEqual(Array(pending).fill(false));
    expect(await selectedPositions()).toEqual([]);
    expect(await barCount().isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Approve", exact: true }).isVisible()).toBe(false);
    const headerCentre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest("thead") !== null, headerCentre)).toBe(true);

    // A row, then the bar's box: the rest of the page is selected (the box showed "some")
    await rowCheckbox(page.locator("tbody tr").filter({ has: page.locator("input:not([disabled])") }).nth(1)).click();
    expect(await page.getByText("1 selected", { exact: true }).isVisible()).toBe(true);
    const someBox = page.getByRole("checkbox", { name: "Select all 25 commissions", exact: true });
    expect(await someBox.evaluate((input) => (input as HTMLInputElement).indeterminate)).toBe(true);
    await someBox.click();
    await expect.poll(ticks).toEqual(Array(pending).fill(true));
  }, 60_000);

  it("selects the page without adding or removing an element: the bar is already there, and only shows", async () => {
    await open("/app/commissions");
    await page.evaluate(() => {
      const w = window as unknown as { __changed: string[] };
      w.__changed = [];
      const describe = (node: Node) => (node instanceof Element ? `${node.nodeName}.${String(node.className).slice(0, 60)}` : "");
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of [...record.addedNodes, ...record.removedNodes]) if (node instanceof Element) w.__changed.push(describe(node));
        }
      }).observe(document.querySelector(".rb-commissions")!, { childList: true, subtree: true });
    });
    const header = (await page.locator("thead input[type=checkbox]").first().boundingBox())!;
    await page.mouse.click(header.x + header.width / 2, header.y + header.height / 2);
    await expect.poll(() => barCount().isVisible()).toBe(true);
    // The rows learn of the selection a frame after the bar: once every pending row is ticked and painted, nothing is left to change.
    await expect.poll(ticks).toEqual(Array(await pendingBoxes().count()).fill(true));
    await afterPaints(page);
    expect(await page.evaluate(() => (window as unknown as { __changed: string[] }).__changed)).toEqual([]);
  }, 60_000);

  it("selects the page without making an image: the boxes' tick and dash are made while the page loads", async () => {
    await open("/app/commissions");
    // The browser makes a document of its own for each SVG image (a parse, a load) the first time an
    // element shows it; that was ~40 ms at 4× CPU inside the first "select the page".
    await browser.startTracing(page, { categories: ["devtools.timeline"] });
    const header = (await page.locator("thead input[type=checkbox]").first().boundingBox())!;
    await page.mouse.click(header.x + header.width / 2, header.y + header.height / 2);
    await expect.poll(ticks).toEqual(Array(await pendingBoxes().count()).fill(true));
    // The bar's box shows the dash when some rows are selected
    await rowCheckbox(page.locator("tbody tr").filter({ has: page.locator("input:not([disabled])") }).first()).click();
    expect(await page.getByRole("checkbox", { name: "Select all 25 commissions", exact: true }).evaluate((input) => (input as HTMLInputElement).indeterminate)).toBe(true);
    // The unticked row and the bar's dash are painted: an image they would make is in the trace.
    await afterPaints(page);
    const events = JSON.parse((await browser.stopTracing()).toString("utf8")).traceEvents as { name: string; args?: { data?: { isMainFrame?: boolean } } }[];
    const documentsLoaded = events.filter((e) => e.name === "MarkLoad").length;
    expect(events.some((e) => e.name === "UpdateLayoutTree")).toBe(true);
    expect(documentsLoaded).toBe(0);
  }, 60_000);

  it("keeps the bar in view at the top of the window while the table scrolls under it", async () => {
    await open("/app/commissions", { width: 1200, height: 600 });
    await page.locator("thead input[type=checkbox]").first().click({ force: true });
    await page.mouse.wheel(0, 900);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(600);
    const bar = barCount();
    await expect.poll(async () => (await bar.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect((await bar.boundingBox())!.y).toBeLessThan(40);
    // Its box is on top there, and clears the selection
    const barBox = page.getByRole("checkbox", { name: "Deselect all 25 commissions", exact: true });
    const at = (await barBox.boundingBox())!;
    expect(await page.evaluate(({ x, y }) => (document.elementFromPoint(x, y) as HTMLInputElement | null)?.ariaLabel, { x: at.x + at.width / 2, y: at.y + at.height / 2 })).toBe(
      "Deselect all 25 commissions"
    );
    await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
    await expect.poll(ticks).toEqual(Array(await pendingBoxes().count()).fill(false));
    await shot("admin-commissions-bar-scrolled.png");
  }, 60_000);

  it("shows the whole bar on a phone: its count and actions wrap, inside the screen", async () => {
    await open("/app/commissions", { width: 390, height: 844 });
    await page.locator("thead input[type=checkbox]").first().click({ force: true });
    await page.getByRole("button", { name: "Select all 25+ commissions", exact: true }).click();
    await shot("admin-commissions-bar-phone.png");
    const inScreen = async (name: string | RegExp) => {
      const box = (await page.getByRole("button", { name, exact: true }).boundingBox())!;
      return box.x >= 0 && box.x + box.width <= 390;
    };
    expect(await inScreen("Approve all matching")).toBe(true);
    expect(await inScreen("Deny all matching")).toBe(true);
    expect(await inScreen("Undo")).toBe(true);
    // Nothing of the bar is cut off: each of its parts shows whole
    const clipped = await page.locator(".Polaris-IndexTable__BulkActionsWrapper").filter({ visible: true }).evaluate((bar) => {
      const outer = bar.getBoundingClientRect();
      return [...bar.querySelectorAll("button, input, span")]
        .map((part) => part.getBoundingClientRect())
        .filter((r) => r.width > 0 && (r.bottom > outer.bottom + 1 || r.right > outer.right + 1)).length;
    });
    expect(clipped).toBe(0);
  }, 60_000);

  it("selects every matching commission on every page from the bar, and Undo goes back to the page", async () => {
    await open("/app/commissions");
    const pending = await pendingBoxes().count();
    await page.locator("thead input[type=checkbox]").first().click({ force: true });
    await page.getByRole("button", { name: "Select all 25+ commissions", exact: true }).click();
    const everyPage = page.getByText("Every pending commission matching these filters is selected, on every page.");
    expect(await everyPage.isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Approve all matching" }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Deny all matching" }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Approve", exact: true }).isVisible()).toBe(false);
    await shot("admin-commissions-bar-every-page.png");

    // Undo: back to this page's rows, still selected
    await page.getByRole("button", { name: "Undo", exact: true }).click();
    expect(await everyPage.isVisible()).toBe(false);
    expect(await page.getByText(`${pending} selected`, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Approve", exact: true }).isVisible()).toBe(true);
    expect(await ticks()).toEqual(Array(pending).fill(true));
  }, 60_000);

  it("selects the page from the keyboard: Space on the header's box, focus on the bar's box, Space again clears it", async () => {
    await open("/app/commissions");
    const header = page.locator("thead input[type=checkbox]").first();
    await header.focus();
    // Tab and back, so the focus is the keyboard's (as a merchant tabbing there)
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    expect(await header.evaluate((box) => box === document.activeElement)).toBe(true);
    await page.keyboard.press("Space");
    await expect.poll(ticks).toEqual(Array(await pendingBoxes().count()).fill(true));
    // The bar covers the header's box: the focus moved to the bar's box, visible and named
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    expect(await focused()).toBe("Deselect all 25 commissions");
    await page.keyboard.press("Space");
    await expect.poll(ticks).toEqual(Array(await pendingBoxes().count()).fill(false));
    // And back to the header's box once the bar is gone
    expect(await header.evaluate((box) => box === document.activeElement)).toBe(true);
  }, 60_000);

  it("toggles a row by a click on it, and shift-click takes the range from the row last toggled", async () => {
    await open("/app/commissions");
    const pendingRows = page.locator("tbody tr").filter({ has: page.locator("input[type=checkbox]:not([disabled])") });
    const cellOf = (at: number) => pendingRows.nth(at).locator("td").nth(1);

    // A click on a row's text selects it; a second click clears it
    await cellOf(3).click();
    expect(await selectedPositions()).toEqual([3]);
    await cellOf(3).click();
    expect(await selectedPositions()).toEqual([]);

    // The checkbox of row 2, then shift and the checkbox of row 6: rows 2 to 6
    await rowCheckbox(pendingRows.nth(2)).click();
    await rowCheckbox(pendingRows.nth(6)).click({ modifiers: ["Shift"] });
    expect(await selectedPositions()).toEqual([2, 3, 4, 5, 6]);
    // Shift-click on row 9's text: from row 6 (the last toggled) to 9
    await cellOf(9).click({ modifiers: ["Shift"] });
    expect(await selectedPositions()).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    // Shift-click on a selected row clears the range from row 9 to it
    await cellOf(4).click({ modifiers: ["Shift"] });
    expect(await selectedPositions()).toEqual([2, 3]);
    // No text was selected on the way
    expect(await page.evaluate(() => String(window.getSelection()))).toBe("");
    await expect.poll(ticks).toEqual([...Array(await pendingBoxes().count()).keys()].map((at) => at === 2 || at === 3));

    // A click on an approved row does nothing; a click on a row's link or button does not toggle it
    await page.locator("tbody tr").filter({ hasText: "Approved" }).first().locator("td").nth(1).click();
    expect(await selectedPositions()).toEqual([2, 3]);
  }, 60_000);

  it("names each row's checkbox for a screen reader, and the keyboard ticks it", async () => {
    await open("/app/commissions");
    const names = await page
      .locator("tbody")
      .getByRole("checkbox")
      .evaluateAll((boxes) => boxes.map((box) => box.getAttribute("aria-label") ?? ""));
    const uids = await bodyRows().evaluateAll((rows) => rows.map((row) => row.id));
    // One name for each row, and it names that row's commission.
    expect(names).toEqual(uids.map((uid) => `Select commission ${uid}`));
    expect(new Set(names).size).toBe(names.length);

    // The merchant tabs to the first pending row's box and presses Space
    const first = rowCheckbox(page.locator("tbody tr").filter({ has: page.locator("input:not([disabled])") }).first());
    await first.focus();
    await page.keyboard.press("Space");
    expect(await selectedPositions()).toEqual([0]);
    // Tab moves on past the row's buttons to the next row's box; Space ticks it
    for (let presses = 0; presses < 8; presses += 1) {
      await page.keyboard.press("Tab");
      const on = await page.evaluate(() => document.activeElement?.getAttribute("type"));
      if (on === "checkbox") break;
    }
    await page.keyboard.press("Space");
    expect(await selectedPositions()).toEqual([0, 1]);
    expect(await page.getByText("2 selected", { exact: true }).isVisible()).toBe(true);
    // Space again clears it
    await page.keyboard.press("Space");
    expect(await selectedPositions()).toEqual([0]);
  }, 60_000);

  it("approves the selected rows from the bar, and only them", async () => {
    await open("/app/commissions");
    const rowOf = (email: string) => page.locator("tbody tr").filter({ hasText: email });
    await rowCheckbox(rowOf("ambassador0@example.com")).click();
    await rowCheckbox(rowOf("ambassador1@example.com")).click();
    expect(await page.getByText("2 selected", { exact: true }).isVisible()).toBe(true);

    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await watchNetwork(page).settled(250, 15_000);
    await expect.poll(() => page.getByText("2 commissions approved").isVisible(), { timeout: 10_000 }).toBe(true);
    const ledger = await sandboxCommissions(sandbox);
    const stateOf = (email: string) => ledger.filter((c) => c.affiliate_email === email).map((c) => c.state);
    expect(stateOf("ambassador0@example.com")).toEqual(["approved"]);
    expect(stateOf("ambassador1@example.com")).toEqual(["approved"]);
    expect(stateOf("ambassador2@example.com")).toEqual(["pending"]);
    expect(ledger.filter((c) => c.state === "approved").length).toBe(2 + 2);
    // The selection is cleared once the decision is sent.
    expect(await selectedPositions()).toEqual([]);
  }, 60_000);

  it("draws no checkbox column when nothing on the page can be selected", async () => {
    // GIVEN the approved commissions alone (the seed's two): nothing to select
    await open("/app/commissions?status=approved", undefined, false);
    expect(await bodyRows().count()).toBe(2);
    // THEN neither the header nor the rows have a checkbox, and every row has one cell a heading
    expect(await page.getByRole("checkbox").count()).toBe(0);
    const headings = await page.locator("thead th").count();
    expect(await bodyRows().evaluateAll((rows) => rows.map((row) => row.children.length))).toEqual([headings, headings]);
  }, 60_000);

  it("keeps the checkbox and the first column in view when a narrow table scrolls sideways", async () => {
    await open("/app/commissions", { width: 700, height: 900 });
    const scroller = page.locator(".Polaris-IndexTable-ScrollContainer").first();
    const firstRow = page.locator("tbody tr").first();
    const before = {
      box: (await firstRow.locator("td").nth(0).boundingBox())!,
      date: (await firstRow.locator("td").nth(1).boundingBox())!,
      customer: (await firstRow.locator("td").nth(3).boundingBox())!,
    };
    await scroller.evaluate((el) => (el.scrollLeft = 300));
    await page.waitForTimeout(300);
    const after = {
      box: (await firstRow.locator("td").nth(0).boundingBox())!,
      date: (await firstRow.locator("td").nth(1).boundingBox())!,
      customer: (await firstRow.locator("td").nth(3).boundingBox())!,
    };
    expect(await scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // The checkbox and the date stay where they were, side by side; the other columns moved.
    expect(after.box.x).toBe(before.box.x);
    expect(after.date.x).toBe(before.date.x);
    expect(after.date.x).toBeGreaterThanOrEqual(after.box.x + after.box.width - 1);
    expect(after.customer.x).toBeLessThan(before.customer.x - 100);
    await shot("admin-commissions-rows-narrow.png");
  }, 60_000);
});
