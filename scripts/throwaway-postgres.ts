// Starts a private PostgreSQL cluster on loopback for tests and for writing
// migrations, and removes it again. Needs Debian's postgresql package.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./lib/free-port";

export interface ThrowawayPostgres {
  url: string;
  stop(): void;
}

export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : undefined;
}

/** `settings`: more server settings (`name=value`), e.g. the benchmark's shared_preload_libraries=pg_stat_statements. */
export async function startThrowawayPostgres(options: { settings?: string[] } = {}): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install -y postgresql)");
  const dir = mkdtempSync(join(tmpdir(), "referral-bridge-pg-"));
  // PostgreSQL refuses to run as root; run it as the postgres system user then.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  // runuser lives in /usr/sbin, which a minimal PATH may leave out.
  const runuser = existsSync("/usr/sbin/runuser") ? "/usr/sbin/runuser" : "runuser";
  const run = (cmd: string, args: string[]) =>
    execFileSync(asRoot ? runuser : cmd, asRoot ? ["-u", "postgres", "--", cmd, ...args] : args, {
      stdio: "pipe",
    });
  const data = join(dir, "data");
  const port = await freePort();
  run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  run(join(bin, "pg_ctl"), [
    "-D", data, "-l", join(dir, "server.log"), "-w", "start",
    "-o", [`-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`, ...(options.settings ?? []).map((setting) => `-c ${setting}`)].join(" "),
  ]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
