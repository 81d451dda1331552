// Test files that never touch the app's database: the referral service's
// client and the sandbox, pure functions, the locales, the SQLite write lock's
// threads. The PostgreSQL pass leaves them out (test/vitest.config.ts): they
// would run the same code as on SQLite. On SQLite they get no database at all
// (setup.ts), so one that starts using it fails there instead of being left out
// of the PostgreSQL pass unseen.

/** Paths from the repository's root: a folder (ending in "/") or a file. */
export const DATABASE_FREE_FILES = [
  "test/referral-api/",
  "test/sandbox/",
  "test/admin/extension-status.test.ts",
  "test/admin/service-errors.test.ts",
  "test/admin/status-badges.test.ts",
  "test/admin/support-contact.test.ts",
  "test/app/admin-call-errors.test.ts",
  "test/app/file-names.test.ts",
  "test/app/lru-map.test.ts",
  "test/app/offline-token.test.ts",
  "test/app/production-config.test.ts",
  "test/app/shopify-cli-config.test.ts",
  "test/app/sqlite-write-lock.test.ts",
  "test/app/stray-rejections.test.ts",
  "test/customer-metafields/share-link-documents.test.ts",
  "test/extensions/locales.test.ts",
  "test/proxy/share-links-units.test.ts",
  "test/referrals/order-payload.test.ts",
  "test/referrals/referral-decision.test.ts",
  "test/service-events/payout-landed.test.ts",
  "test/service-events/signature.test.ts",
  "test/storefront/share-links-display.test.ts",
  "test/storefront/theme-check.test.ts",
  "test/webhooks/acknowledgements.test.ts",
  "test/webhooks/installed-shops.test.ts",
];

/** The same paths as vitest globs. */
export const databaseFreeGlobs = () => DATABASE_FREE_FILES.map((path) => (path.endsWith("/") ? `${path}**` : path));

/** Whether the test file at `relativePath` (from the repository's root) is one of them. */
export const isDatabaseFree = (relativePath: string) =>
  DATABASE_FREE_FILES.some((path) => (path.endsWith("/") ? relativePath.startsWith(path) : relativePath === path));

/**
 * The DATABASE_URL of a database-free file: SQLite under a path whose parent is
 * this very file, so opening it fails, and so does creating its folder.
 */
export const NO_DATABASE_URL = "file:./test/support/database-free.ts/no-database.sqlite";
