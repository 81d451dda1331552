export { sampleCheckoutToken, shopifyOrder, shopifyRefund, type OrderOptions, type RefundOptions } from "../../scripts/lib/sample-orders";
