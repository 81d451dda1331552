import { serveOrderWebhookRequest } from "../wiring/order-intake.server";

export const action = serveOrderWebhookRequest;
