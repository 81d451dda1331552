import { normaliseGroup, normaliseGroupMember } from "../normalise/group";
import { normalisePage } from "../normalise/page";
import { type IterateOptions, iteratePages } from "../paging";
import { encodeParams } from "../params";
import { isRecord } from "../scalars";
import type { Group, GroupMember, Page } from "../types";
import type { OperationDeps } from "./deps";
import type { Id } from "./param-groups";

export interface GetGroupParams {
  groupId: Id;
  /** 1-based; at most 100 members per page. */
  page?: number;
}

/** A group with one page of its members. */
export interface GroupPage extends Page<GroupMember> {
  group: Group;
}

/** POST group/get: a group and one page of its ambassadors (emails). */
export function getGroupOperation({ transport }: OperationDeps) {
  return function getGroup(params: GetGroupParams): Promise<GroupPage> {
    const page = params.page ?? 1;
    return transport.request({
      operation: "group/get",
      method: "POST",
      params: encodeParams({ ...params, page }),
      normalise(data) {
        const { group, ...rest } = isRecord(data) ? data : {};
        return { ...normalisePage(rest, "ambassadors", page, normaliseGroupMember), group: normaliseGroup(group) };
      },
    });
  };
}

/** Every member of a group, across all pages of group/get. */
export function iterateGroupMembersOperation(deps: OperationDeps) {
  const getGroup = getGroupOperation(deps);
  return function iterateGroupMembers(params: { groupId: Id }, options?: IterateOptions) {
    return iteratePages((page) => getGroup({ groupId: params.groupId, page }), (m) => m.email, options);
  };
}
