import type { LoaderFunctionArgs } from "@remix-run/node";
import prisma from "../wiring/db.server";
import { dataRequestDownload } from "../domains/privacy/data-requests.server";
import { authenticate } from "../wiring/shopify.server";

// The finished report of one of this shop's data requests, as a JSON file.
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const file = await dataRequestDownload(prisma, session.shop, params.id ?? "");
  if (!file) return new Response("No finished report with this id", { status: 404 });
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    },
  });
};
