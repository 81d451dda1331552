// The test files that never touch the app's database (database-free.json,
// vitest globs from the repository's root): the referral service's client and
// the sandbox, pure functions, the locales, the SQLite write lock's threads.
// The PostgreSQL pass leaves them out (test/vitest.config.ts): they would run
// the same code as on SQLite. On SQLite they get no database at all (setup.ts),
// so one that starts using it fails there instead of being left out of the
// PostgreSQL pass unseen.
import { matchesGlob } from "node:path";
import globs from "./database-free.json";

/** Whether the test file at `relativePath` (from the repository's root) is one of them. */
export const isDatabaseFree = (relativePath: string) => globs.some((glob) => matchesGlob(relativePath, glob));

/**
 * The DATABASE_URL of a database-free file: SQLite under a path whose parent is
 * this very file, so opening it fails, and so does creating its folder.
 */
export const NO_DATABASE_URL = "file:./test/support/database-free.ts/no-database.sqlite";
