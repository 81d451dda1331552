export { shopifyOrder, shopifyRefund, type OrderOptions } from "../../scripts/lib/sample-orders";
