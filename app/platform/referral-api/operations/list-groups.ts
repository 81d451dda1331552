import { readFields } from "../field-reader";
import { normaliseGroup } from "../normalise/group";
import type { Group } from "../types";
import type { OperationDeps } from "./deps";

/** GET group/all: every group of the company. */
export function listGroupsOperation({ transport }: OperationDeps) {
  return function listGroups(): Promise<Group[]> {
    return transport.request({
      operation: "group/all",
      method: "GET",
      normalise: (data) => readFields(data, "response data").array("groups").map(normaliseGroup),
    });
  };
}
