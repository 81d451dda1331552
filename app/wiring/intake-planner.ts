import { ORDER_PLANNER } from "../domains/referrals/order-intake";
import { threadModule, type ThreadModule } from "../platform/threads/thread-module";

// What the app's intake plans with, as APP_JOBS is what its worker runs
// (jobs.server.ts): every store, and every thread that serves one, is handed
// this planner.

export const INTAKE_PLANNER = ORDER_PLANNER;

/** The SQLite intake's thread of its own (intake-thread.ts; built as sqlite-intake-thread). */
export const intakeThread = (): ThreadModule => threadModule("sqlite-intake-thread", "app/wiring/intake-thread.ts");
