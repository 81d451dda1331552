import { parentPort, workerData } from "node:worker_threads";
import { serveIntake, type ThreadSettings } from "../platform/intake/sqlite-intake";
import { INTAKE_PLANNER } from "./intake-planner";

// The SQLite intake in a thread of its own (sqliteIntakeStore, when no job
// worker's thread serves it): the thread does nothing else, so its writes
// wait for the lock by blocking it.

serveIntake(parentPort!, workerData as ThreadSettings, INTAKE_PLANNER);
