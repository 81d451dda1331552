// The bench's product page, served from loopback three ways (without the app, with
// the tracking embed, with the embed and the links block), for Lighthouse
// (main.ts) and for anything else that wants the same page.
import { deflateSync } from "node:zlib";
import { renderBlock, storefrontPage } from "../../test/domains/storefront/liquid-lite";
import { sendHtml, sendJson, startStorefront, type Storefront } from "../../test/domains/storefront/storefront-server";
import type { ShareLinksAnswer } from "../../app/domains/storefront/share-links-contract";
import { readAmountFormat, withDisplayAmounts } from "../../app/domains/storefront/share-links-display";

/** A PNG of a soft gradient with grain, the size of a product photo (written by hand: no image library needed). */
function productPhoto(size: number, hue: number): Buffer {
  const row = size * 3 + 1;
  const raw = Buffer.alloc(row * size);
  let noise = hue * 7919;
  for (let y = 0; y < size; y++) {
    raw[y * row] = 0;
    for (let x = 0; x < size; x++) {
      noise = (noise * 1103515245 + 12345) & 0x7fffffff;
      const grain = (noise >> 16) % 3;
      const i = y * row + 1 + x * 3;
      raw[i] = (hue + x / 4 + grain) & 255;
      raw[i + 1] = (120 + y / 5 + grain) & 255;
      raw[i + 2] = (200 - x / 6 + grain) & 255;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

export const photos = [0, 60, 120, 180].map((hue) => productPhoto(600, hue));

const THEME_CSS = `
  header, footer { background: #f4f1ec; padding: 1rem 1.5rem; display: flex; justify-content: space-between; align-items: center; }
  header nav a, footer a { margin-right: 1rem; color: #1f2a37; text-decoration: none; }
  .product { display: grid; gap: 2rem; grid-template-columns: 1fr; }
  @media (min-width: 750px) { .product { grid-template-columns: 3fr 2fr; } }
  .gallery img { width: 100%; height: auto; display: block; margin-bottom: 0.75rem; border-radius: 4px; }
  .buy button { width: 100%; padding: 0.9rem; background: #1f2a37; color: #fff; border: 0; font-size: 1rem; border-radius: 4px; }
  .price { font-size: 1.4rem; margin: 0.5rem 0 1rem; }`;

export function productPage(variant: Variant): string {
  const gallery = photos
    // The other views say fetchpriority="low", as a theme's gallery should: without it Chrome raises
    // the second view (partly in the phone's viewport) to High whenever a rendering frame falls
    // inside its download, which on loopback is a matter of luck; Lighthouse then counts that photo
    // in the LCP it simulates, and the page's LCP jumps by 1.5 s at random, app or no app.
    .map((_, i) => `<img src="/images/product-${i}.png" width="600" height="600" alt="Merino hoodie, view ${i + 1}"${i === 0 ? ' fetchpriority="high"' : ' loading="lazy" fetchpriority="low"'}>`)
    .join("\n");
  const links = variant === "embed and links block" ? renderBlock("referral-links", { globals: { customer: { first_name: "Alice", email: "alice@example.com" } } }) : null;
  const embed = variant === "without the app" ? "" : renderBlock("referral-tracking").html;
  const body = `
<header><strong>Demo Outfitters</strong><nav><a href="/">Home</a><a href="/collections/all">Shop</a><a href="/cart">Cart (0)</a></nav></header>
<section class="product">
  <div class="gallery">${gallery}</div>
  <div class="buy">
    <h1>Merino hoodie</h1>
    <p class="price">$100.00 USD</p>
    <form action="/cart/add" method="post"><label>Size <select name="size"><option>S</option><option selected>M</option><option>L</option></select></label>
    <p><button type="submit">Add to cart</button></p></form>
    ${"<p>Soft, warm and breathable: our hoodie is knitted from fine merino wool, with a relaxed fit, a lined hood and deep pockets. Machine washable on a wool cycle.</p>".repeat(4)}
    ${links?.html ?? ""}
  </div>
</section>
<footer><span>© Demo Outfitters</span><a href="/policies/privacy-policy">Privacy</a></footer>
${embed}`;
  const head = `<style>${THEME_CSS}</style>${links?.schema.stylesheet ? `<link rel="stylesheet" href="/assets/${links.schema.stylesheet}">` : ""}`;
  return storefrontPage(body, head);
}

export const VARIANTS = ["without the app", "tracking embed", "embed and links block"] as const;
export type Variant = (typeof VARIANTS)[number];

export const LINKS_ANSWER: ShareLinksAnswer = {
  status: "ok",
  ambassador: { firstName: "Alice", email: "alice@example.com", balanceMoney: "12.50", balancePoints: "0", moneyPaid: "0.00", pointsPaid: "0", uniqueReferrals: 2, pointName: "points" },
  links: [
    { campaignUid: "1001", campaignName: "Friends & Family", description: "Give 10%, get 10%", url: "https://demo-outfitters.example/?mbsy=ALICE10", socialEnabled: true, totalMoneyEarned: "10.00", totalPointsEarned: "0" },
  ],
};

/** Serves the page at /products/merino-hoodie?variant=<index in VARIANTS>, its photos and the app proxy. */
export function startProductPage(): Promise<Storefront> {
  return startStorefront((req, res) => {
    const photo = /^\/images\/product-(\d)\.png$/.exec(req.path);
    if (photo) {
      res.writeHead(200, { "content-type": "image/png", "cache-control": "max-age=3600" });
      res.end(photos[Number(photo[1])]);
      return;
    }
    if (req.path === "/apps/referrals/links") {
      // As the app proxy's route answers: the amounts formatted when the block names its locale and currency.
      const format = readAmountFormat(req.url.searchParams);
      return sendJson(res, 200, format ? withDisplayAmounts(LINKS_ANSWER, format) : LINKS_ANSWER);
    }
    const variant = VARIANTS[Number(req.url.searchParams.get("variant") ?? 0)] ?? VARIANTS[0];
    if (req.path === "/products/merino-hoodie") return sendHtml(res, productPage(variant));
    res.writeHead(404).end();
  });
}
