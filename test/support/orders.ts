export { sampleCheckoutToken, shopifyOrder, shopifyRefund, type OrderOptions } from "../../scripts/lib/sample-orders";
