// Imports between the top-level folders (and root files) of app/ go one
// way: each node may import only nodes of a lower rank. Routes are on top,
// then the wiring root, the merchant pages' server side, the domains, and the
// infrastructure below them (queue, Shopify Admin adapter, referral client,
// sealing, database). Two nodes of one rank may not import each other, so
// there can be no cycle. `npm run check:imports` runs it; CI fails on a
// violation. A new folder of app/ gets its rank here, or the check fails.

/** Lowest first. */
const RANKS = [
  ["db", "threads"],
  ["referral-api", "crypto", "cache"],
  ["shopify-admin", "logger.server.ts"],
  ["queue"],
  ["connection", "flow-triggers"],
  ["offers"],
  ["referrals"],
  ["customer-metafields"],
  ["order-sync", "service-events"],
  ["privacy", "env.server.ts"],
  ["db.server.ts"],
  ["shopify.server.ts"],
  ["webhooks"],
  ["storefront"],
  ["admin"],
  ["flow-actions"],
  ["components"],
  ["wiring"],
  ["routes", "entry.server.tsx"],
  ["root.tsx"],
];

const DOMAINS = ["connection", "flow-triggers", "offers", "referrals", "customer-metafields", "order-sync", "service-events", "privacy", "storefront", "admin", "flow-actions"];

const escaped = (name) => name.replace(/[.]/g, "\\.");
const nodePath = (names) => `^app/(${names.map(escaped).join("|")})(/|$)`;
const known = RANKS.flat();

const oneWay = RANKS.flatMap((rank, level) =>
  rank.map((node) => {
    const notBelow = RANKS.slice(level).flat().filter((other) => other !== node);
    return {
      name: `one-way-down:${node}`,
      comment: `app/${node} may import only what lies below it (.dependency-cruiser.cjs lists the ranks); nothing of ${notBelow.join(", ")}.`,
      severity: "error",
      from: { path: nodePath([node]) },
      to: { path: nodePath(notBelow) },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "queue-knows-no-domain",
      comment: "The queue is infrastructure: it is handed its job registry and imports only the database layer and a logger type.",
      severity: "error",
      from: { path: "^app/queue/" },
      to: { path: "^app/", pathNot: "^app/(queue|db)/|^app/logger\\.server\\.ts$" },
    },
    {
      name: "domains-read-no-environment",
      comment: "Domains receive their settings; only the wiring (and routes, db.server, shopify.server) read getEnv().",
      severity: "error",
      from: { path: nodePath(DOMAINS) },
      to: { path: "^app/(env|db|shopify)\\.server\\.ts$" },
    },
    ...oneWay,
    {
      name: "every-node-ranked",
      comment: "A new top-level folder or file of app/ needs its rank in .dependency-cruiser.cjs.",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^app/", pathNot: nodePath(known) },
    },
    {
      name: "no-circular",
      comment: "No module imports itself through others.",
      severity: "error",
      from: { path: "^app/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.d\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
