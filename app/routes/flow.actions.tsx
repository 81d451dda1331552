import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../wiring/db.server";
import { getEnv } from "../wiring/env.server";
import { handleFlowActionRequest } from "../entry/flow/action-endpoint.server";
import { logger } from "../platform/logger/logger.server";
import { shopHasSession } from "../wiring/order-intake.server";

/** POST /flow/actions: Shopify Flow's calls of the app's actions (app/entry/flow/action-endpoint.server.ts). */
const handle = ({ request }: ActionFunctionArgs) => handleFlowActionRequest(request, { db: prisma, secret: getEnv().SHOPIFY_API_SECRET, shopHasSession, logger });

export const action = handle;
export const loader = handle;
