import type { EmailType, Store } from "../state";

/** No mail leaves the sandbox: an "email sent" is a ledger record (and feeds company/emails). */
export function recordEmail(
  store: Store,
  email: { type: EmailType; recipient: string; subject: string; message: string; now?: number },
): void {
  store.emails.push({
    id: store.nextId("email"),
    type: email.type,
    recipient: email.recipient,
    subject: email.subject,
    message: email.message,
    sentMs: email.now ?? Date.now(),
  });
}
