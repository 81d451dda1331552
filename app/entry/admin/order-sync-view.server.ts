import type { PrismaClient } from "@prisma/client";
import { ALL_ORDERS_SCOPE, DAYS_WITHOUT_ALL_ORDERS, DEFAULT_BACKFILL_DAYS, shopHasScope, startBackfill } from "../../domains/order-sync/backfill.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import type { AdminContext } from "./admin-context";
import type { MerchantError } from "./merchant-error";
import { shopStorefrontHealth, type StorefrontHealth } from "../../domains/order-sync/storefront-health.server";
import { pixelSettingsFor } from "../../domains/order-sync/web-pixel.server";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "../../domains/referrals/pipeline-settings";

// What the Overview shows of reading the shop's orders back from Shopify
// (reconciliation, backfill), and the backfill the merchant asks for there.

export interface OrderSyncView {
  reconciledAt: string | null;
  /** Orders no webhook brought that reconciliation found. */
  missedOrders: number;
  missedChanges: number;
  reconcileError: string | null;
  backfill: {
    status: "running" | "done" | "failed";
    days: number;
    total: number | null;
    seen: number;
    added: number;
    error: string | null;
    finishedAt: string | null;
  } | null;
  defaultDays: number;
  daysWithoutAllOrders: number;
  /** The shop granted read_all_orders: the backfill may go past 60 days. */
  allOrders: boolean;
}

export async function orderSyncView(db: PrismaClient, shop: string): Promise<OrderSyncView> {
  const [state, allOrders] = await Promise.all([db.orderSync.findUnique({ where: { shop } }), shopHasScope(db, shop, ALL_ORDERS_SCOPE)]);
  return {
    reconciledAt: state?.reconciledAt?.toISOString() ?? null,
    missedOrders: state?.missedOrders ?? 0,
    missedChanges: state?.missedChanges ?? 0,
    reconcileError: state?.reconcileError ?? null,
    backfill: state?.backfillStatus
      ? {
          status: state.backfillStatus as "running" | "done" | "failed",
          days: state.backfillDays ?? DEFAULT_BACKFILL_DAYS,
          total: state.backfillTotal,
          seen: state.backfillSeen,
          added: state.backfillAdded,
          error: state.backfillError,
          finishedAt: state.backfillFinishedAt?.toISOString() ?? null,
        }
      : null,
    defaultDays: DEFAULT_BACKFILL_DAYS,
    daysWithoutAllOrders: DAYS_WITHOUT_ALL_ORDERS,
    allOrders,
  };
}

/** The Overview's "send past orders" form. */
export async function requestBackfill(db: PrismaClient, shop: string, form: FormData, now = new Date()): Promise<{ ok: true } | { ok: false; error: MerchantError }> {
  const days = Number(form.get("days"));
  const started = await startBackfill(db, shop, days, now);
  if (!started.ok) return { ok: false, error: { title: "The backfill didn't start", message: started.error, retryable: false } };
  notifyJobEnqueued();
  return { ok: true };
}

/** The setup guide's storefront checks; the web pixel is connected, or its settings updated, on the way. */
export async function storefrontChecks(ctx: Pick<AdminContext, "db" | "adminForShop" | "appUrl">, shop: string): Promise<StorefrontHealth> {
  const { db, adminForShop, appUrl } = ctx;
  if (!adminForShop || !appUrl) throw new Error("storefrontChecks needs the admin context's adminForShop and appUrl");
  const row = await db.shop.findUnique({ where: { shop } });
  const { codeParams } = readPipelineSettings(row ?? PIPELINE_DEFAULTS);
  return shopStorefrontHealth(adminForShop, shop, (embed) => pixelSettingsFor(appUrl, codeParams, embed));
}
