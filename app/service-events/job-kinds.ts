/** The job that acts on one stored service event (see app/jobs/handlers/service-event.server.ts). */
export const SERVICE_EVENT_JOB = "service-event.process";
