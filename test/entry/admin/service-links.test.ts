// The admin renders only http(s) links from the service: a service (or
// anyone who controls its answers) sending javascript: or data: links gets
// them dropped on the way to the page.
import { createServer, type Server } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { loader as ambassadorLoader } from "../../../app/routes/app.ambassadors.$email";
import { loader as ambassadorsLoader } from "../../../app/routes/app.ambassadors._index";
import { loader as campaignsLoader } from "../../../app/routes/app.campaigns";
import { connectShop, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { load } from "./admin-requests";

const sandbox = useTestSandbox();
let proxy: Server | undefined;

/** The sandbox behind a loopback proxy that turns every http(s) link of its answers into `scheme` links. */
async function rewritingService(scheme: string): Promise<string> {
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await fetch(`${sandbox.baseUrl}${req.url}`, {
      method: req.method,
      headers: { "content-type": String(req.headers["content-type"] ?? "application/json") },
      body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
    });
    const text = (await answer.text()).replace(/https?:(\\\/|\/){2}/g, scheme);
    res.writeHead(answer.status, { "content-type": "application/json" }).end(text);
  });
  await new Promise<void>((resolve) => proxy!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
}

beforeEach(async () => {
  await installShop();
});
afterEach(async () => {
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  proxy = undefined;
});

async function connectThrough(scheme: string) {
  await connectShop(sandbox, { campaignUids: "1001" });
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { serviceBaseUrl: await rewritingService(scheme) } });
}

describe("service-supplied links in the admin", () => {
  it.each(["javascript:alert(document.domain)//", "data:text/html,<script>alert(1)</script>//"])("drops %s landing pages and share links", async (scheme) => {
    await connectThrough(scheme);

    const page = await load(campaignsLoader, "/app/campaigns");
    if (!page.ok || !page.program.ok) throw new Error(JSON.stringify(page));
    const campaigns = page.program.value;
    expect(campaigns.campaigns.length).toBeGreaterThan(0);
    expect(campaigns.campaigns.map((c) => c.landingPage)).toEqual(campaigns.campaigns.map(() => null));

    const email = "alice@example.com";
    const ambassador = await load(ambassadorLoader, `/app/ambassadors/${encodeURIComponent(email)}`, { params: { email } });
    if (!ambassador.ok || !ambassador.detail?.ok || !ambassador.detail.value) throw new Error(JSON.stringify(ambassador));
    const detail = ambassador.detail.value;
    expect(detail.campaigns.length).toBeGreaterThan(0);
    expect(detail.campaigns.map((c) => c.url)).toEqual(detail.campaigns.map(() => null));
    const list = await load(ambassadorsLoader, "/app/ambassadors");
    expect(JSON.stringify([campaigns, ambassador, list])).not.toMatch(/javascript:|data:text/);
  });

  it("keeps https links", async () => {
    await connectThrough("https://");
    const page = await load(campaignsLoader, "/app/campaigns");
    if (!page.ok || !page.program.ok) throw new Error(JSON.stringify(page));
    const campaigns = page.program.value;
    expect(campaigns.campaigns[0]!.landingPage).toBe("https://demo-outfitters.example/");
  });
});
