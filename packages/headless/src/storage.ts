import type { KeptReferral } from "./landing";
import { STORAGE_KEY } from "./settings";

/** Where the kept code lives between page views. */
export interface ReferralStore {
  read(): KeptReferral | null;
  write(kept: KeptReferral | null): void;
}

// The record as the embed writes it: { c: code, k: campaign, x: expires at (ms) }.
interface Record_ {
  c?: unknown;
  k?: unknown;
  x?: unknown;
}

function decode(text: string | null): KeptReferral | null {
  try {
    const record = JSON.parse(text ?? "null") as Record_ | null;
    if (!record || typeof record.c !== "string" || typeof record.x !== "number") return null;
    return { code: record.c, campaign: typeof record.k === "string" ? record.k : "", expiresAt: record.x };
  } catch {
    // A damaged record counts as none.
    return null;
  }
}

const encode = (kept: KeptReferral) => JSON.stringify({ c: kept.code, k: kept.campaign, x: kept.expiresAt });

/** localStorage when the browser allows it, else a first-party cookie that expires with the code. */
export function browserStore(win: Window): ReferralStore {
  try {
    const local = win.localStorage;
    local.setItem(`${STORAGE_KEY}_probe`, "1");
    local.removeItem(`${STORAGE_KEY}_probe`);
    return {
      read: () => decode(local.getItem(STORAGE_KEY)),
      write: (kept) => (kept ? local.setItem(STORAGE_KEY, encode(kept)) : local.removeItem(STORAGE_KEY)),
    };
  } catch {
    return cookieStore(win.document, win.location.protocol === "https:");
  }
}

function cookieStore(doc: Document, secure: boolean): ReferralStore {
  return {
    read() {
      const match = doc.cookie.match(new RegExp(`(?:^|; )${STORAGE_KEY}=([^;]*)`));
      return match ? decode(decodeURIComponent(match[1])) : null;
    },
    write(kept) {
      const expires = new Date(kept ? kept.expiresAt : 0).toUTCString();
      doc.cookie = `${STORAGE_KEY}=${kept ? encodeURIComponent(encode(kept)) : ""}; path=/; expires=${expires}; SameSite=Lax${secure ? "; Secure" : ""}`;
    },
  };
}

/** A store in memory: for a server render, or tests. */
export function memoryStore(initial: KeptReferral | null = null): ReferralStore {
  let kept = initial;
  return { read: () => kept, write: (next) => void (kept = next) };
}
