import { readFields } from "../field-reader";
import type { Group, GroupMember } from "../types";

export function normaliseGroup(raw: unknown): Group {
  const r = readFields(raw, "group");
  return {
    groupId: r.requiredText("group_id"),
    name: r.text("name"),
    description: r.text("description"),
    isDefault: r.flag("default"),
    totalAmbassadors: r.number("total_ambassadors"),
    extra: r.extra(),
  };
}

export function normaliseGroupMember(raw: unknown): GroupMember {
  const r = readFields(raw, "group member");
  return { email: r.requiredText("email"), extra: r.extra() };
}
