// The extensions' locale files: which languages ship, and reading one file's texts as flat keys.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const extensions = fileURLToPath(new URL("../../../extensions/", import.meta.url));

/** English (the default) and the seven translations. */
export const LANGUAGES = ["en", "fr", "de", "es", "it", "nl", "pt-BR", "ja"] as const;

export type Texts = Record<string, string>;

/** A folder of locale files: "" for customer-facing texts (`fr.json`), ".schema" for the theme editor's labels (`fr.schema.json`). */
export interface LocaleFiles {
  dir: string;
  kind: "" | ".schema";
}

function flatten(value: unknown, prefix = ""): Texts {
  const out: Texts = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (typeof child === "object" && child !== null) Object.assign(out, flatten(child, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = String(child);
  }
  return out;
}

/** The file Shopify reads for a language: English from `en.default`. */
export const fileName = (files: LocaleFiles, language: string) => `${language === "en" ? "en.default" : language}${files.kind}.json`;

/** One language's texts, nested keys joined with dots. */
export function readTexts(files: LocaleFiles, language: string): Texts {
  return flatten(JSON.parse(readFileSync(path.join(extensions, files.dir, fileName(files, language)), "utf8")));
}
