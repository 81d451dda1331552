import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// A fact has one owner that every caller goes through (docs/decisions/026):
// a commission's decision is app/domains/commissions' (the service call,
// the state, the Flow trigger), an order record's status app/domains/referrals'.

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** app/'s files outside `owner` whose text `breaks` the owner's rule. */
function outside(owner: string, breaks: (text: string) => boolean): string[] {
  return sourceFiles(path.join(repoRoot, "app"))
    .map((file) => path.relative(repoRoot, file))
    .filter((file) => !file.startsWith(`${owner}/`) && breaks(readFileSync(path.join(repoRoot, file), "utf8")));
}

/** The text from `open` (a "(" or "{") to its closing bracket. */
function bracketed(text: string, open: number): string {
  const close = text[open] === "(" ? ")" : "}";
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === text[open]) depth += 1;
    else if (text[i] === close && (depth -= 1) === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/** Whether a Prisma write to orderRecord sets `status` in its data, or plain SQL does. */
function writesOrderStatus(text: string): boolean {
  if (/UPDATE "OrderRecord" SET[^;`]*"status"/.test(text)) return true;
  return [...text.matchAll(/orderRecord\.(?:update|updateMany|upsert)\(/g)].some((call) => {
    const args = bracketed(text, call.index + call[0].length - 1);
    return [...args.matchAll(/\b(?:data|update|create)\s*:\s*\{/g)].some((data) => /\bstatus\s*:/.test(bracketed(args, data.index + data[0].length - 1)));
  });
}

describe("one owner per fact", () => {
  it("a commission is changed at the service, and its state moved, only in app/domains/commissions", () => {
    expect(outside("app/domains/commissions", (text) => /\.updateCommission\(|commission-state"/.test(text))).toEqual([]);
  });

  it("an order record's status is written only in app/domains/referrals", () => {
    expect(writesOrderStatus('await tx.orderRecord.updateMany({ where: { status: "failed" }, data: { statusReason: "x", status: "queued" } });')).toBe(true);
    expect(writesOrderStatus('await db.orderRecord.updateMany({ where: { shop, status: "queued" }, data: { browserIp: null } });')).toBe(false);
    expect(outside("app/domains/referrals", writesOrderStatus)).toEqual([]);
  });
});
