// The extensions' texts in every language the app ships: each locale file has
// exactly English's keys, each text keeps English's {{placeholders}}, and every
// English key is one the extension's code or Liquid uses (and every key the code
// asks for exists). Shopify picks the file by the storefront's or checkout's locale.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extensions, fileName, LANGUAGES, readTexts, type LocaleFiles, type Texts } from "./support/locales";

interface LocaleSet extends LocaleFiles {
  name: string;
  /** The files whose code or Liquid uses these keys. */
  sources: string[];
  /** The keys a source asks for, as written in it. */
  keysUsed(source: string): string[];
}

const filesIn = (dir: string): string[] =>
  readdirSync(path.join(extensions, dir)).map((file) => path.join(extensions, dir, file));

const matches = (source: string, pattern: RegExp): string[] => [...source.matchAll(pattern)].map((m) => m[1]);

// A UI extension's keys: t("key") and translate("key"), plus the keys the code hands to t() in a variable:
// the values of NOT_ENROLLED_TEXT and the share targets' `label`s.
const uiKeys = (source: string) => {
  const notEnrolled = /NOT_ENROLLED_TEXT[^=]*=\s*\{([^}]*)\}/.exec(source)?.[1] ?? "";
  return [
    ...matches(source, /\b(?:t|translate)\(\s*"([A-Za-z][\w.]*)"/g),
    ...matches(source, /\blabel:\s*"(\w+)"/g),
    ...matches(notEnrolled, /:\s*"(\w+)"/g),
  ];
};

const SETS: LocaleSet[] = [
  {
    name: "theme app extension (storefront texts)",
    dir: "referral-theme/locales",
    kind: "",
    sources: filesIn("referral-theme/blocks"),
    keysUsed: (source) => matches(source, /'([\w.]+)'\s*\|\s*t\b/g),
  },
  {
    name: "theme app extension (theme editor labels)",
    dir: "referral-theme/locales",
    kind: ".schema",
    sources: filesIn("referral-theme/blocks"),
    keysUsed: (source) => matches(source, /"t:([\w.]+)"/g),
  },
  {
    name: "checkout thank-you / order status block",
    dir: "checkout-share-link/locales",
    kind: "",
    sources: [...filesIn("checkout-share-link/src"), path.join(extensions, "customer-account/src/links-api.ts")],
    keysUsed: uiKeys,
  },
  {
    name: "customer account block",
    dir: "customer-account/locales",
    kind: "",
    sources: filesIn("customer-account/src"),
    keysUsed: uiKeys,
  },
];

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** What is wrong with one translation, compared with English; empty when nothing is. */
function localeProblems(english: Texts, other: Texts): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(english)) {
    if (!(key in other)) problems.push(`missing ${key}`);
    else if (other[key].trim() === "") problems.push(`empty ${key}`);
    else if (placeholders(other[key]).join() !== placeholders(english[key]).join())
      problems.push(`${key} has {{${placeholders(other[key]).join("}}, {{")}}} instead of {{${placeholders(english[key]).join("}}, {{")}}}`);
  }
  for (const key of Object.keys(other)) if (!(key in english)) problems.push(`unknown ${key}`);
  return problems;
}

/** English keys no source uses, and keys a source uses that English lacks. */
function usageProblems(english: Texts, used: string[]): string[] {
  const usedSet = new Set(used);
  return [
    ...Object.keys(english).filter((key) => !usedSet.has(key)).map((key) => `unused ${key}`),
    ...[...usedSet].filter((key) => !(key in english)).map((key) => `undefined ${key}`),
  ];
}

describe.each(SETS)("locales of the $name", (set) => {
  const english = readTexts(set, "en");

  it("has a file for each of the eight languages and no other", () => {
    const files = readdirSync(path.join(extensions, set.dir)).filter((file) =>
      set.kind ? file.endsWith(".schema.json") : file.endsWith(".json") && !file.endsWith(".schema.json"),
    );
    expect(files.sort()).toEqual(LANGUAGES.map((language) => fileName(set, language)).sort());
  });

  it.each(LANGUAGES.filter((language) => language !== "en"))("%s has every English key, no other, with the same placeholders", (language) => {
    expect(localeProblems(english, readTexts(set, language))).toEqual([]);
  });

  it("uses every English key, and asks for no key English lacks", () => {
    const used = set.sources.flatMap((file) => set.keysUsed(readFileSync(file, "utf8")));
    expect(usageProblems(english, used)).toEqual([]);
  });
});

describe("the checks themselves", () => {
  const english = { heading: "Hi", label: "Link for {{campaign}}" };
  it("notice a missing key, an unknown key, an empty text and a changed placeholder", () => {
    expect(localeProblems(english, { heading: "Salut", label: "Lien pour {{campagne}}", extra: "x" })).toEqual([
      "label has {{campagne}} instead of {{campaign}}",
      "unknown extra",
    ]);
    expect(localeProblems(english, { label: "Lien pour {{campaign}}" })).toEqual(["missing heading"]);
    expect(localeProblems(english, { heading: " ", label: "Lien pour {{campaign}}" })).toEqual(["empty heading"]);
  });
  it("notice an unused key and an undefined one", () => {
    expect(usageProblems(english, ["heading", "intro"])).toEqual(["unused label", "undefined intro"]);
  });
});
