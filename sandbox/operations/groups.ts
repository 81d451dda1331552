import { notFound } from "../envelope";
import { flag } from "../render";
import type { Group, Store } from "../state";
import { paginate, type OperationDef } from "./shared";

function members(store: Store, group: Group) {
  return [...store.ambassadors.values()]
    .filter((a) => a.groups.includes(group.id))
    .sort((x, y) => x.createdMs - y.createdMs || x.id - y.id);
}

const groupInfo = (group: Group) => ({
  group_id: group.id,
  name: group.name,
  description: group.description,
  default: flag(group.isDefault),
});

const all: OperationDef = {
  method: "GET",
  run({ store }) {
    return {
      groups: [...store.groups.values()].map((group) => ({ ...groupInfo(group), total_ambassadors: members(store, group).length })),
    };
  },
};

const get: OperationDef = {
  method: "POST",
  run({ params, store }) {
    params.require("group_id");
    params.numbers({ integers: ["group_id", "page"] });
    const group = store.groups.get(String(params.int("group_id")));
    if (!group) throw notFound(`The group_id ${params.get("group_id")} does not exist.`);
    return {
      group: groupInfo(group),
      ambassadors: paginate(members(store, group), params.int("page")).map((a) => ({ email: a.email })),
    };
  },
};

export const groupOperations: Record<string, OperationDef> = { "group/all": all, "group/get": get };
