import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

// A file's name says what it is without its folder: no two source files of
// app/ share one, except those every domain with jobs has by design.
const BY_DESIGN = new Set(["index.ts", "job-kinds.ts", "jobs.server.ts"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

describe("app/'s file names", () => {
  it("are each used once, but for each domain's job kinds and jobs", () => {
    const byName = new Map<string, string[]>();
    for (const file of sourceFiles(path.join(repoRoot, "app"))) {
      const name = path.basename(file);
      byName.set(name, [...(byName.get(name) ?? []), path.relative(repoRoot, file)]);
    }
    const repeated = [...byName].filter(([name, files]) => files.length > 1 && !BY_DESIGN.has(name));
    expect(repeated).toEqual([]);
  });
});
