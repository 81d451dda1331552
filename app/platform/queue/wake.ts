import { EventEmitter } from "node:events";

// Lets an in-process worker start on a new job at once instead of at its next poll.
const bell = new EventEmitter();
bell.setMaxListeners(50);

export function notifyJobEnqueued(): void {
  bell.emit("job");
}

export function onJobEnqueued(listener: () => void): () => void {
  bell.on("job", listener);
  return () => bell.off("job", listener);
}
