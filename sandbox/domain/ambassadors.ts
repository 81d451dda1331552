import { randomInt } from "node:crypto";
import { badRequest } from "../envelope";
import {
  ADDRESS_FIELDS,
  CUSTOM_FIELDS,
  normaliseEmail,
  type AddressField,
  type Ambassador,
  type AmbassadorStatus,
  type Store,
} from "../state";
import { recordEmail } from "./emails";
import { contactFull, contactShort, campaignShape } from "./webhook-shapes";
import { isActiveCampaign, shareUrl } from "./campaigns";

export interface NewAmbassador {
  email: string;
  uid?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  custom?: Record<string, string | null | undefined>;
  address?: Partial<Record<AddressField, string | null | undefined>>;
  company?: string | null;
  paypalEmail?: string | null;
  status?: AmbassadorStatus;
  deactivated?: boolean;
  sandbox?: boolean;
  /** Resolved group ids; undefined = the default groups. */
  groups?: string[];
  sendWelcomeEmail?: boolean;
  /** How the contact was created, reported in the contact-created webhook. */
  source: string;
}

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function generateShortCode(store: Store, email: string, reserved: ReadonlySet<string> = new Set()): string {
  const stem = email.split("@")[0].toUpperCase().replace(/[^A-Z0-9]/g, "").slice(0, 6) || "AMB";
  for (;;) {
    let suffix = "";
    for (let i = 0; i < 4; i++) suffix += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
    const code = `${stem}${suffix}`;
    if (!store.isShortCodeTaken(code) && !reserved.has(code)) return code;
  }
}

export function defaultGroups(store: Store): string[] {
  return [...store.groups.values()].filter((g) => g.isDefault).map((g) => g.id);
}

/** `-1` means no group; unknown ids are rejected so a typo does not go unnoticed. */
export function resolveGroupIds(store: Store, ids: string[], paramName: string): string[] {
  if (ids.length === 1 && ids[0] === "-1") return [];
  const unknown = ids.filter((id) => !store.groups.has(id));
  if (unknown.length > 0) throw badRequest(`The following group IDs of ${paramName} do not exist: ${unknown.join(", ")}.`);
  return [...new Set(ids)];
}

export function createAmbassador(store: Store, input: NewAmbassador, now = Date.now()): Ambassador {
  const email = normaliseEmail(input.email);
  const uid = input.uid ?? null;
  if (store.findByEmail(email)) throw badRequest(`The email address ${email} is already used by another ambassador.`);
  if (uid && store.findByUid(uid)) throw badRequest(`The uid ${uid} is already used by another ambassador.`);
  const deactivated = input.deactivated ?? false;
  // A deactivated newcomer stays a prospect unless a status was asked for.
  const status: AmbassadorStatus = input.status ?? (deactivated ? "prospect" : "enrolled");
  const ambassador: Ambassador = {
    id: store.nextId("ambassador"),
    uid,
    email,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    createdMs: now,
    enrolledMs: status === "enrolled" ? now : null,
    unenrolledMs: status === "banned" || status === "unsubscribed" ? now : null,
    status,
    active: !deactivated && status !== "banned",
    sandbox: input.sandbox ?? false,
    balanceCents: 0,
    balancePoints: 0,
    moneyPaidCents: 0,
    pointsPaid: 0,
    custom: Object.fromEntries(CUSTOM_FIELDS.map((f) => [f, input.custom?.[f] ?? null])),
    groups: input.groups ?? defaultGroups(store),
    address: Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, input.address?.[f] ?? null])) as Ambassador["address"],
    company: input.company ?? null,
    paypalEmail: input.paypalEmail ?? null,
    shortCodes: new Map(),
    ipAddresses: [],
  };
  const drawn = new Set<string>();
  for (const campaignUid of store.campaigns.keys()) {
    const code = generateShortCode(store, email, drawn);
    drawn.add(code);
    ambassador.shortCodes.set(campaignUid, code);
  }
  store.insertAmbassador(ambassador);

  store.emit("contact-created", { contact: { ...contactFull(store, ambassador), source: input.source } });
  for (const campaign of store.campaigns.values()) {
    if (!isActiveCampaign(campaign, now)) continue;
    const code = ambassador.shortCodes.get(campaign.uid)!;
    store.emit("contact-added-to-campaign", {
      contact: contactShort(ambassador),
      campaign: campaignShape(campaign),
      url: { short_code: code, share_url: shareUrl(store, code) },
    });
  }
  for (const groupId of ambassador.groups) emitAddedToSegment(store, ambassador, groupId);
  if (input.sendWelcomeEmail) sendWelcomeEmail(store, ambassador, now);
  return ambassador;
}

export function sendWelcomeEmail(store: Store, ambassador: Ambassador, now = Date.now()): void {
  recordEmail(store, {
    type: "newAmbassador",
    recipient: ambassador.email,
    subject: `Welcome to the ${store.company.name} referral program`,
    message: `Your login details for the ${store.company.name} ambassador portal.`,
    now,
  });
}

function emitAddedToSegment(store: Store, ambassador: Ambassador, groupId: string): void {
  const group = store.groups.get(groupId);
  if (!group) return;
  store.emit("contact-added-to-segment", {
    contact: contactShort(ambassador),
    segment: { id: Number(group.id), name: group.name, legacy_id: group.id, description: group.description },
  });
}

export function replaceGroups(store: Store, ambassador: Ambassador, groups: string[]): void {
  const before = new Set(ambassador.groups);
  ambassador.groups = groups;
  for (const id of groups) if (!before.has(id)) emitAddedToSegment(store, ambassador, id);
}

/** Deactivation bans (the document's banned rule wins); reactivation enrols again. */
export function setActive(store: Store, ambassador: Ambassador, active: boolean, now = Date.now()): void {
  if (active) {
    ambassador.active = true;
    setStatus(store, ambassador, "enrolled", now);
  } else {
    ambassador.active = false;
    setStatus(store, ambassador, "banned", now);
  }
}

export function setStatus(store: Store, ambassador: Ambassador, status: AmbassadorStatus, now = Date.now()): void {
  if (ambassador.status === status) return;
  ambassador.status = status;
  if (status === "enrolled") ambassador.enrolledMs = now;
  if (status === "banned" || status === "unsubscribed") ambassador.unenrolledMs = now;
  if (status !== "prospect") store.emit("contact-status-updated", { contact: contactFull(store, ambassador) });
}

export function canEarn(ambassador: Ambassador): boolean {
  return ambassador.active && ambassador.status !== "banned";
}
