// PostgreSQL's plans as EXPLAIN (FORMAT JSON) gives them: the fields the tests read.

export type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  /** Per loop, with ANALYZE. */
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};

/** Every step of a plan, depth first. */
export function stepsOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(stepsOf)];
}
