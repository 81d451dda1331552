// Shared by the service-webhook card and the server side of its pages; no
// server code here, since the card's bundle reaches the browser.

/** The form that rotates the service webhook secret (on Settings and on Service events). */
export const ROTATE_SECRET_INTENT = "rotate-webhook-secret";

/** What the card may show: the receiving URL and the secret's dates; the secret itself only in the answer that made it. */
export interface ServiceWebhookView {
  url: string;
  /** ISO time the current secret was made; null when it was made before the app kept the time. */
  secretMadeAt: string | null;
  /** ISO time until which the replaced secret still verifies; null when it no longer does. */
  previousValidUntil: string | null;
  /** How long a replaced secret keeps verifying after a rotation. */
  overlapHours: number;
  /** The secret, only right after it was made (first view, or a rotation); never on a later page load. */
  newSecret: string | null;
  /** The stored secret can't be read by the app any more (its key changed): deliveries are refused until it is rotated. */
  secretUnreadable: boolean;
}

export type RotateSecretResult = { ok: true; webhook: ServiceWebhookView } | { ok: false; message: string };
