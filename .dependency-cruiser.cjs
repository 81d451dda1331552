// Four layers (docs/architecture.md), each importing only downward:
//
//   app/routes, root.tsx, entry.server.tsx   the Remix shell: thin routes
//   app/wiring                               the composition root: may import anything below the shell
//   app/entry                                what the outside world calls (webhooks, pixel, Flow, admin pages)
//   app/domains                              one folder per concern; neighbours import its index.ts
//   app/platform                             what any app would need; knows no domain
//
// A domain imports another only through that domain's index.ts, and only
// along ALLOWED below, each entry with its reason. `npm run check:imports`
// runs these rules; test/app/layers.test.ts also holds the folder graph to
// a longest chain of 8 with no two folders importing each other.

/** Which domains each domain may import, and why. */
const ALLOWED = {
  connection: {},
  "flow-triggers": {},
  offers: { connection: "the friend's offer is read from the shop's campaign at the referral service" },
  commissions: {
    connection: "a decision is asked of the referral service with the shop's client",
    "flow-triggers": "a decision sends its commission approved/denied Flow trigger",
  },
  referrals: {
    connection: "the order jobs record events at the referral service with the shop's client",
    commissions: "the order, cancel and refund jobs decide commissions through their one owner",
    "flow-triggers": "a recorded or blocked referral sends its Flow trigger",
    offers: "a coupon code's owner is read from the friend's offer",
  },
  "customer-metafields": {
    connection: "the share link is read from the referral service",
    offers: "the friend's offer code shown beside the share link",
  },
  storefront: {
    connection: "the share links are read from the referral service",
    "customer-metafields": "a customer seen without a share link gets one asked for",
    "flow-triggers": "an ambassador enrolled from the storefront sends its Flow trigger",
    offers: "the friend's offer shown with the share links",
  },
  "service-events": {
    commissions: "a commission event from the service moves the commission through its owner",
    referrals: "a commission event finds its order record",
    "flow-triggers": "payouts and enrolments send their Flow triggers",
    "customer-metafields": "a new ambassador gets their share-link metafield",
    offers: "a new campaign's friend offer is synced",
  },
  "order-sync": { referrals: "reconciliation and the backfill hand the orders they read to the referral intake" },
  privacy: {
    referrals: "a customer's order records and their jobs are found and erased",
    connection: "erasure and export at the referral service",
    "flow-triggers": "a shop's redaction drops its queued Flow triggers",
  },
  "flow-actions": {
    connection: "an action calls the referral service with the shop's client",
    commissions: "the approve/deny action decides through the commissions' owner",
    referrals: "the approve/deny action finds the order's commissions by the referrers its record names",
    "customer-metafields": "the enrol action asks for the new ambassador's share-link metafield",
    offers: "the enrol action syncs the friend's offer",
  },
};

const DOMAINS = Object.keys(ALLOWED);
const SHELL = "^app/(routes/|root\\.tsx$|entry\\.server\\.tsx$)";
const LAYER_ROOTS = "^app/(routes|entry|domains|platform|wiring|types)/|^app/(root|entry\\.server)\\.tsx$";

const domainRules = DOMAINS.map((domain) => {
  const others = DOMAINS.filter((d) => d !== domain && !(d in ALLOWED[domain]));
  return {
    name: `domain-allow-list:${domain}`,
    comment: `app/domains/${domain} may import only ${Object.keys(ALLOWED[domain]).join(", ") || "no other domain"} (ALLOWED in .dependency-cruiser.cjs says why).`,
    severity: "error",
    from: { path: `^app/domains/${domain}/` },
    to: { path: others.length ? `^app/domains/(${others.join("|")})/` : "^$" },
  };
}).filter((rule) => rule.to.path !== "^$");

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "platform-knows-no-domain",
      comment: "app/platform is infrastructure: it is handed what it runs (the queue its registry, the intake its planner) and imports only platform and packages.",
      severity: "error",
      from: { path: "^app/platform/" },
      to: { path: "^app/", pathNot: "^app/(platform|types)/" },
    },
    {
      name: "domains-below-entry",
      comment: "A domain is plain functions over the dependencies it is handed: it imports no entry point, no wiring (nor the environment) and no route.",
      severity: "error",
      from: { path: "^app/domains/" },
      to: { path: `^app/(entry|wiring)/|${SHELL}` },
    },
    {
      name: "entry-below-wiring",
      comment: "An entry point is handed its context by the route (from the wiring); it imports neither.",
      severity: "error",
      from: { path: "^app/entry/" },
      to: { path: `^app/wiring/|${SHELL}` },
    },
    {
      name: "wiring-below-the-shell",
      comment: "The wiring builds contexts and processes; only the Remix shell and the process entries import it.",
      severity: "error",
      from: { path: "^app/wiring/" },
      to: { path: SHELL },
    },
    {
      name: "a-domain-shows-one-face",
      comment: "Another domain imports a domain through its index.ts, never a file inside it.",
      severity: "error",
      from: { path: "^app/domains/([^/]+)/" },
      to: { path: "^app/domains/[^/]+/", pathNot: ["^app/domains/$1/", "^app/domains/[^/]+/index\\.ts$"] },
    },
    {
      name: "the-wiring-uses-the-face",
      comment:
        "The wiring imports a domain through its index.ts, but for the light modules a script or a thread loads without the rest of the domain: its job kinds (env.server.ts's defaults) and the intake's planner (the intake's thread).",
      severity: "error",
      from: { path: "^app/wiring/" },
      to: { path: "^app/domains/[^/]+/", pathNot: ["^app/domains/[^/]+/(index|job-kinds)\\.ts$", "^app/domains/referrals/order-intake\\.ts$"] },
    },
    ...domainRules,
    {
      name: "every-file-in-a-layer",
      comment: "Every module of app/ sits in one of the layers (or is a root file of the Remix shell).",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^app/", pathNot: LAYER_ROOTS },
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
