import { orderWebhookAction } from "../webhooks/order-webhooks.server";

export const action = orderWebhookAction;
