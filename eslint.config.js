import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // extensions/*/dist and shopify.d.ts: what `shopify app build` writes.
  { ignores: ["build/", "public/build/", "node_modules/", "data/", "test-artifacts/", ".cache/", "extensions/*/dist/", "extensions/*/shopify.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly" },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } },
  },
  {
    files: ["extensions/**/assets/*.js"],
    languageOptions: {
      globals: { window: "readonly", document: "readonly", localStorage: "readonly", fetch: "readonly", navigator: "readonly", location: "readonly", setTimeout: "readonly", clearTimeout: "readonly", URLSearchParams: "readonly", requestIdleCallback: "readonly" },
    },
  },
);
