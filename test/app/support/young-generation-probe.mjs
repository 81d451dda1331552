// Loaded into a served build with --import (start-command.test.ts): once the
// app has started, measures how large V8 lets the new space (the young
// generation's two semi-spaces) grow in the main thread, and in a thread
// started with its own limits as the app's threads are, and writes both (in
// MB) to $YOUNG_GENERATION_REPORT.
import { renameSync, writeFileSync } from "node:fs";
import { Worker } from "node:worker_threads";

/** Makes short-lived garbage and returns the largest new space V8 gave it, in MB. */
const churnSource = `
  const v8 = require("node:v8");
  let kept = [];
  let largest = 0;
  for (let round = 0; round < 1500; round++) {
    const garbage = [];
    for (let i = 0; i < 5000; i++) garbage.push({ i, text: "x".repeat(20) + i });
    kept.push(garbage[0]);
    if (kept.length > 20000) kept = [];
    largest = Math.max(largest, v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size);
  }
  return largest / 1048576;
`;

// The test sends SIGUSR2 once the app answers: server.mjs has run its top-level code (the flags it clears) by then.
process.once("SIGUSR2", () => {
  const thread = new Worker(`require("node:worker_threads").parentPort.postMessage((() => {${churnSource}})())`, {
    eval: true,
    resourceLimits: { maxYoungGenerationSizeMb: 12 },
  });
  thread.once("message", (threadMb) => {
    const mainMb = new Function("require", churnSource)(process.getBuiltinModule);
    // Written whole, then renamed: the test reads the report once it exists, never half-written.
    const report = process.env.YOUNG_GENERATION_REPORT;
    writeFileSync(`${report}.partial`, JSON.stringify({ mainMb, threadMb }));
    renameSync(`${report}.partial`, report);
  });
});
