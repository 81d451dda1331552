// Small inline illustrations for empty states (no request to a CDN needed).

const svg = (body: string) =>
  `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 180" width="240" height="180">${body}</svg>`
  )}`;

/** A store and a referral program, linked. */
export const CONNECT_ILLUSTRATION = svg(`
  <ellipse cx="120" cy="160" rx="96" ry="10" fill="#EBEBEB"/>
  <rect x="22" y="48" width="72" height="84" rx="12" fill="#FFFFFF" stroke="#CCCCCC" stroke-width="2"/>
  <path d="M22 70h72" stroke="#CCCCCC" stroke-width="2"/>
  <rect x="34" y="58" width="30" height="5" rx="2.5" fill="#8A8A8A"/>
  <rect x="34" y="82" width="48" height="8" rx="4" fill="#E3E3E3"/>
  <rect x="34" y="98" width="36" height="8" rx="4" fill="#E3E3E3"/>
  <rect x="34" y="114" width="42" height="8" rx="4" fill="#E3E3E3"/>
  <rect x="146" y="48" width="72" height="84" rx="12" fill="#CDFEE1" stroke="#29845A" stroke-width="2"/>
  <circle cx="182" cy="80" r="14" fill="#29845A"/>
  <path d="M176 80l4.5 4.5 8-9" stroke="#FFFFFF" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
  <rect x="160" y="104" width="44" height="6" rx="3" fill="#29845A" opacity=".45"/>
  <rect x="166" y="116" width="32" height="6" rx="3" fill="#29845A" opacity=".3"/>
  <path d="M98 90h44" stroke="#29845A" stroke-width="3" stroke-dasharray="6 6" stroke-linecap="round"/>
  <circle cx="120" cy="90" r="11" fill="#FFFFFF" stroke="#29845A" stroke-width="2.5"/>
  <path d="M115 90h10M120 85v10" stroke="#29845A" stroke-width="2.5" stroke-linecap="round"/>
`);

/** An empty list. */
export const EMPTY_LIST_ILLUSTRATION = svg(`
  <ellipse cx="120" cy="160" rx="80" ry="9" fill="#EBEBEB"/>
  <rect x="62" y="26" width="116" height="124" rx="12" fill="#FFFFFF" stroke="#CCCCCC" stroke-width="2"/>
  <rect x="96" y="18" width="48" height="18" rx="6" fill="#E3E3E3" stroke="#CCCCCC" stroke-width="2"/>
  <circle cx="84" cy="62" r="6" fill="#E3E3E3"/><rect x="98" y="58" width="60" height="8" rx="4" fill="#E3E3E3"/>
  <circle cx="84" cy="88" r="6" fill="#E3E3E3"/><rect x="98" y="84" width="48" height="8" rx="4" fill="#E3E3E3"/>
  <circle cx="84" cy="114" r="6" fill="#E3E3E3"/><rect x="98" y="110" width="54" height="8" rx="4" fill="#E3E3E3"/>
  <circle cx="168" cy="126" r="20" fill="#FFFFFF" stroke="#8A8A8A" stroke-width="4"/>
  <path d="M182 140l14 14" stroke="#8A8A8A" stroke-width="6" stroke-linecap="round"/>
`);

/** All caught up: nothing needs attention. */
export const ALL_GOOD_ILLUSTRATION = svg(`
  <ellipse cx="120" cy="160" rx="70" ry="9" fill="#EBEBEB"/>
  <circle cx="120" cy="86" r="56" fill="#CDFEE1"/>
  <circle cx="120" cy="86" r="38" fill="#29845A"/>
  <path d="M102 86l12 12 24-26" stroke="#FFFFFF" stroke-width="7" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
`);
