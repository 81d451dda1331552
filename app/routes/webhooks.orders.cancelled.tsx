import { orderWebhookAction } from "../webhooks/order-webhook-action.server";

export const action = orderWebhookAction;
