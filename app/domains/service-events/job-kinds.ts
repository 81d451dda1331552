import { z } from "zod";
import { defineJobKind } from "../../platform/queue/job-kind";

/** Acts on one stored service event (see process-event.server.ts). */
export const SERVICE_EVENT_JOB = defineJobKind({ name: "service-event.process", payload: z.object({ serviceEventId: z.string() }) });
