// A served build's error lines fail the test during which they were written, as
// the test process's own console.error does (setup.ts). An error line is one
// of our logger's lines at level error or fatal (pino's 50 and 60), wherever
// it is written, or any other text on stderr (console.error, Node's report of
// an uncaught exception) but Node's own warnings. A test that makes the
// served app err on purpose names what it expects with expectServedError.
import type { Readable } from "node:stream";

interface ErrorLine {
  source: string;
  line: string;
}

const unclaimed: ErrorLine[] = [];
let allowed: RegExp[] = [];

const PINO_ERROR_LEVEL = 50;
/** Node's process warnings ("(node:123) ExperimentalWarning: ...") and its hint under them. */
const NODE_WARNING = /^\(node:\d+\) \[?\w*\]? ?\w*Warning\b|^\(Use `node --trace-\w+/;

/** Whether a line of the served process is an error line (see above). */
export function isErrorLine(line: string, stream: "stdout" | "stderr"): boolean {
  if (line.trim() === "") return false;
  if (line.startsWith("{")) {
    try {
      const level = (JSON.parse(line) as { level?: unknown }).level;
      if (typeof level === "number") return level >= PINO_ERROR_LEVEL;
    } catch {
      // not one of our logger's lines: judged by its stream below
    }
  }
  return stream === "stderr" && !NODE_WARNING.test(line);
}

/** Reads a served process's stdout and stderr line by line and keeps its error lines for the running test's check. */
export function watchServedOutput(source: string, streams: { stdout?: Readable | null; stderr?: Readable | null }): void {
  for (const name of ["stdout", "stderr"] as const) {
    let partial = "";
    streams[name]?.on("data", (chunk: Buffer | string) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      // Text on stderr written at once (an error with its stack) is one entry, matched as a whole.
      let block: string[] = [];
      const endBlock = () => {
        if (block.length > 0) unclaimed.push({ source, line: block.join("\n") });
        block = [];
      };
      for (const line of lines) {
        if (!isErrorLine(line, name)) continue;
        if (name === "stderr" && !line.startsWith("{")) block.push(line);
        else {
          endBlock();
          unclaimed.push({ source, line });
        }
      }
      endBlock();
    });
    streams[name]?.on("end", () => {
      if (isErrorLine(partial, name)) unclaimed.push({ source, line: partial });
      partial = "";
    });
  }
}

/** The running test makes a served app write an error line matching `pattern` (each test names its own; setup.ts clears them). */
let previous: RegExp[] = [];

export function expectServedError(pattern: RegExp): void {
  allowed.push(pattern);
}

/** The error lines written since the last call that no pattern of the running test allows; `forget` clears the allowed patterns. */
export function takeUnexpectedServedErrors(options: { forget: boolean }): ErrorLine[] {
  const lines = unclaimed.splice(0);
  const unexpected = lines.filter(({ line }) => ![...allowed, ...previous].some((pattern) => pattern.test(line)));
  if (options.forget) {
    // A line the last test caused can reach the pipe after the next test has begun: its patterns stay one test longer.
    previous = allowed;
    allowed = [];
  }
  return unexpected;
}

export function describeServedErrors(lines: ErrorLine[]): string {
  return `The served app wrote error lines (expect them with expectServedError if the test causes them on purpose):\n${lines.map(({ source, line }) => `[${source}] ${line}`).join("\n")}`;
}
