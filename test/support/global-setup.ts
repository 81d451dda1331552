import "../../scripts/lib/require-node";
import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { buildIfNeeded } from "../../scripts/lib/app-process";
import { startThrowawayPostgres } from "../../scripts/throwaway-postgres";
import { createMigratedDatabase } from "./database";

declare module "vitest" {
  export interface ProvidedContext {
    postgresServerUrl: string;
    sqliteFolder: string;
    /** The database every test file's own is copied from (setup.ts), migrated once for the run. */
    templateDatabaseUrl: string;
  }
}

// TEST_DATABASE=postgresql runs every suite on a private PostgreSQL cluster.
export default async function setup(project: TestProject) {
  // Once for the whole run, before any suite serves the built app (two suites building at once would clash).
  buildIfNeeded(() => undefined);
  const sqliteFolder = `data/test/run-${process.pid}`;
  project.provide("sqliteFolder", sqliteFolder);
  const removeFiles = () => rmSync(sqliteFolder, { recursive: true, force: true });
  if (process.env.TEST_DATABASE !== "postgresql") {
    project.provide("postgresServerUrl", "");
    project.provide("templateDatabaseUrl", await createMigratedDatabase({ sqliteFolder }));
    return removeFiles;
  }
  const pg = await startThrowawayPostgres();
  project.provide("postgresServerUrl", pg.url);
  project.provide("templateDatabaseUrl", await createMigratedDatabase({ postgresServerUrl: pg.url, sqliteFolder }));
  return () => {
    pg.stop();
    removeFiles();
  };
}
