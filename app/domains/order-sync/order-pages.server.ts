import type { PrismaClient } from "@prisma/client";
import { jobKey } from "../../platform/queue/job-row";
import type { Logger } from "../../platform/logger/logger.server";
import { adminCall, type AdminCallDeps } from "../../platform/shopify-admin/admin-call.server";
import { REFUND_ORDER_JOB, refundSubject } from "../referrals";
import { repairOrderChanges } from "../referrals";
import type { IntakeResult, OrderSource, OrderWebhook } from "../referrals";
import { GraphqlOrderError, numericId, orderWebhooks } from "./graphql-order";
import {
  MOST_REFUNDS_LISTED,
  ORDER_LINE_ITEMS_QUERY,
  ORDER_REFUNDS_QUERY,
  ORDERS_COUNT_QUERY,
  ORDERS_PER_PAGE,
  ORDERS_QUERY,
  REFUND_LINE_ITEMS_QUERY,
  REFUND_QUERY,
  REFUNDS_PER_ORDER,
  type GraphqlLineItem,
  type GraphqlOrder,
  type GraphqlRefund,
  type GraphqlRefundLine,
  type OrdersPage,
  type PageInfo,
} from "./order-query";

// Reading a shop's orders page by page from the Admin API, and handing each
// page to the order intake: the one path both reconciliation and the
// backfill take.

export interface OrderSyncDeps {
  db: PrismaClient;
  admin: AdminCallDeps;
  /** The order intake webhooks go through (app/wiring/order-intake.server.ts gives it). */
  intake(hooks: OrderWebhook[]): Promise<IntakeResult[]>;
  logger: Logger;
  now(): Date;
}

export interface PageRead {
  orders: GraphqlOrder[];
  pageInfo: PageInfo;
}

export async function readOrdersPage(admin: AdminCallDeps, query: string, sortKey: "UPDATED_AT" | "CREATED_AT", after: string | null): Promise<PageRead> {
  const data = await adminCall<OrdersPage>(admin, ORDERS_QUERY, { query, first: ORDERS_PER_PAGE, after, sortKey });
  return { orders: data.orders.nodes, pageInfo: data.orders.pageInfo };
}

export async function countOrders(admin: AdminCallDeps, query: string): Promise<number> {
  const data = await adminCall<{ ordersCount: { count: number } | null }>(admin, ORDERS_COUNT_QUERY, { query });
  return data.ordersCount?.count ?? 0;
}

/** Shopify's search syntax for a time: quoted ISO 8601 in UTC. */
export const searchTime = (at: Date) => `'${at.toISOString()}'`;

async function allLineItems(admin: AdminCallDeps, order: GraphqlOrder): Promise<GraphqlLineItem[]> {
  const items = [...order.lineItems.nodes];
  let page = order.lineItems.pageInfo;
  while (page.hasNextPage) {
    const data = await adminCall<{ order: { lineItems: { nodes: GraphqlLineItem[]; pageInfo: PageInfo } } | null }>(admin, ORDER_LINE_ITEMS_QUERY, {
      id: order.id,
      after: page.endCursor,
    });
    if (!data.order) break;
    items.push(...data.order.lineItems.nodes);
    page = data.order.lineItems.pageInfo;
  }
  return items;
}

/**
 * The order with every refund listed: a page lists REFUNDS_PER_ORDER, and an
 * order that shows that many is listed again with as many as Shopify lists.
 * One that fills even that cannot be read whole, and is refused, not cut.
 */
async function withAllRefunds(admin: AdminCallDeps, order: GraphqlOrder): Promise<GraphqlOrder> {
  if (order.refunds.length < REFUNDS_PER_ORDER) return order;
  const data = await adminCall<{ order: { refunds: GraphqlOrder["refunds"] } | null }>(admin, ORDER_REFUNDS_QUERY, { id: order.id });
  const refunds = data.order?.refunds ?? order.refunds;
  if (refunds.length >= MOST_REFUNDS_LISTED) throw new GraphqlOrderError(`order ${order.id} has ${MOST_REFUNDS_LISTED} refunds or more, more than the Admin API lists`);
  return { ...order, refunds };
}

/** A refund read whole: its lines page by page; a refund with more transactions or adjustments than one read holds is refused, not cut. */
async function readRefund(admin: AdminCallDeps, id: string): Promise<GraphqlRefund | null> {
  const { refund } = await adminCall<{ refund: GraphqlRefund | null }>(admin, REFUND_QUERY, { id });
  if (!refund) return null;
  for (const part of ["transactions", "orderAdjustments", "refundShippingLines"] as const) {
    if (refund[part].pageInfo?.hasNextPage) throw new GraphqlOrderError(`refund ${id} has more ${part} than the app reads`);
  }
  const lines: GraphqlRefundLine[] = [...refund.refundLineItems.nodes];
  let page = refund.refundLineItems.pageInfo;
  while (page?.hasNextPage) {
    const data = await adminCall<{ refund: { refundLineItems: { nodes: GraphqlRefundLine[]; pageInfo: PageInfo } } | null }>(admin, REFUND_LINE_ITEMS_QUERY, {
      id,
      after: page.endCursor,
    });
    if (!data.refund) break;
    lines.push(...data.refund.refundLineItems.nodes);
    page = data.refund.refundLineItems.pageInfo;
  }
  return { ...refund, refundLineItems: { nodes: lines } };
}

/** The refunds of these orders whose refund job the app does not hold yet (a webhook or an earlier pass brought the others). */
async function unseenRefunds(db: PrismaClient, shop: string, orders: GraphqlOrder[]): Promise<Set<string>> {
  const keys = new Map<string, string>();
  for (const order of orders) {
    for (const refund of order.refunds) {
      keys.set(jobKey(shop, REFUND_ORDER_JOB.name, refundSubject(numericId(order.id, "Order"), numericId(refund.id, "Refund"))), refund.id);
    }
  }
  if (keys.size === 0) return new Set();
  const held = await db.job.findMany({ where: { key: { in: [...keys.keys()] } }, select: { key: true } });
  for (const { key } of held) keys.delete(key);
  return new Set(keys.values());
}

export interface StoredPage {
  /** Orders the intake had not seen (no webhook brought them), as it answered; the Overview's counts are the rows' (found-counts.server.ts). */
  newOrders: number;
  /** Cancellations and refunds the intake had not seen. */
  newChanges: number;
  /** Orders Shopify answered with something the app cannot read; logged, and left out. */
  unreadable: number;
  /** Cancellations and refunds put back in the queue because they had finished without their effect. */
  repaired: number;
}

const RECORD_TOPICS = new Set(["ORDERS_CREATE", "ORDERS_PAID"]);
const FRESH = new Set(["queued", "skipped", "not_referred", "awaiting_signal"]);

/**
 * Feeds one page of orders into the intake, in one batch. Whatever a
 * webhook already brought comes back "duplicate" and changes nothing.
 * Resolves once the page is stored.
 */
export async function storeOrdersPage(deps: OrderSyncDeps, shop: string, page: GraphqlOrder[], arrivedBy: OrderSource): Promise<StoredPage> {
  const stored: StoredPage = { newOrders: 0, newChanges: 0, unreadable: 0, repaired: 0 };
  const unreadable = (order: GraphqlOrder, error: unknown) => {
    if (!(error instanceof GraphqlOrderError)) throw error;
    stored.unreadable += 1;
    deps.logger.error({ shop, order: order.id, err: error }, "an order from the Admin API could not be read; left out");
  };
  const orders: GraphqlOrder[] = [];
  for (const order of page) {
    try {
      orders.push(await withAllRefunds(deps.admin, order));
    } catch (error) {
      unreadable(order, error);
    }
  }
  const refundIds = await unseenRefunds(deps.db, shop, orders);
  const hooks: OrderWebhook[] = [];
  for (const order of orders) {
    try {
      const refunds: GraphqlRefund[] = [];
      for (const refund of order.refunds) {
        if (!refundIds.has(refund.id)) continue;
        const read = await readRefund(deps.admin, refund.id);
        if (read) refunds.push(read);
      }
      hooks.push(...orderWebhooks(shop, order, { lineItems: await allLineItems(deps.admin, order), refunds, arrivedBy }));
    } catch (error) {
      unreadable(order, error);
    }
  }
  const results = hooks.length > 0 ? await deps.intake(hooks) : [];
  const newOrders = new Set<unknown>();
  results.forEach((result, i) => {
    const hook = hooks[i]!;
    if (result.outcome === "malformed") {
      stored.unreadable += 1;
      deps.logger.error({ shop, topic: hook.topic, detail: result.detail }, "an order from the Admin API was refused by the intake");
    }
    if (!FRESH.has(result.outcome)) return;
    if (RECORD_TOPICS.has(hook.topic)) newOrders.add((hook.payload as { id: string }).id);
    else stored.newChanges += 1;
  });
  stored.newOrders = newOrders.size;
  // A cancellation or refund whose job ran before its order could be recorded is applied now.
  const changes = orders.flatMap((order) => {
    try {
      return [{ orderId: numericId(order.id, "Order"), refundIds: order.refunds.map((refund) => numericId(refund.id, "Refund")), cancelled: order.cancelledAt !== null }];
    } catch {
      return [];
    }
  });
  stored.repaired = await repairOrderChanges(deps.db, shop, changes, deps.now());
  return stored;
}
