// What Shopify's GraphQL Admin API charges for a document, by its documented
// rules (shopify.dev, "GraphQL Admin API rate limits", cost calculation):
// a scalar or enum field costs 0; an object 1; an interface or union the
// dearest of what its possible types select; a connection 2 plus its page
// size (`first` or `last`) times the cost of one node, so nested connections
// multiply; a list with a `first` argument that many times its element; a
// mutation 10. Shopify prices the request before running it and refuses one
// above 1,000 (MAX_COST_EXCEEDED); after running it, it charges what the
// answer held (fewer nodes, a null object's fields not at all).
// The stand-in (shopify-admin-standin.ts) and the static test over the app's
// documents (test/platform/shopify-admin/query-cost.test.ts) both price here.
import {
  getNamedType,
  isAbstractType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  getNullableType,
} from "graphql";

/** The most a single query may be requested at; Shopify refuses more before running it. */
export const MAX_QUERY_COST = 1_000;
/** Every mutation field, whatever its payload selects. */
export const MUTATION_COST = 10;

type Variables = Record<string, unknown>;

interface Pricing {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Variables;
  operation: string;
}

/** The operation a document sends (its first, as the app sends one a document). */
export function operationOf(document: DocumentNode): OperationDefinitionNode {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error("the document has no operation");
  return operation;
}

/**
 * The cost of a document's operation. Without `data`, the requested cost (what
 * Shopify checks against the limit and the bucket); with the answer's `data`,
 * the actual cost (what it charges once the query ran).
 */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, variables: Variables = {}, data?: unknown): number {
  const operation = operationOf(document);
  const pricing: Pricing = {
    schema,
    fragments: new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d])),
    variables: withDefaults(operation, variables),
    operation: operation.name?.value ?? "anonymous",
  };
  if (operation.operation === "mutation") {
    return fieldsOn(pricing, schema.getMutationType()!, operation.selectionSet).filter((f) => f.name.value !== "__typename").length * MUTATION_COST;
  }
  return selectionCost(pricing, schema.getQueryType()!, operation.selectionSet, data);
}

function withDefaults(operation: OperationDefinitionNode, variables: Variables): Variables {
  const all: Variables = { ...variables };
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (all[name] === undefined && definition.defaultValue?.kind === Kind.INT) all[name] = Number(definition.defaultValue.value);
  }
  return all;
}

/** The fields a selection set picks on one concrete type, through its fragments. */
function fieldsOn(pricing: Pricing, type: GraphQLObjectType, selectionSet: SelectionSetNode): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (!selection.typeCondition || appliesTo(pricing.schema, selection.typeCondition.name.value, type)) fields.push(...fieldsOn(pricing, type, selection.selectionSet));
    } else {
      const fragment = pricing.fragments.get(selection.name.value);
      if (fragment && appliesTo(pricing.schema, fragment.typeCondition.name.value, type)) fields.push(...fieldsOn(pricing, type, fragment.selectionSet));
    }
  }
  return fields;
}

function appliesTo(schema: GraphQLSchema, condition: string, type: GraphQLObjectType): boolean {
  if (condition === type.name) return true;
  const named = schema.getType(condition);
  return named !== undefined && isAbstractType(named) && schema.isSubType(named, type);
}

/**
 * The cost of what a selection set picks on a composite type. An abstract
 * type costs what its dearest possible type selects, or, given the answer,
 * what the type the answer names selects.
 */
function selectionCost(pricing: Pricing, type: GraphQLCompositeType, selectionSet: SelectionSetNode, data: unknown): number {
  const answered = data as Record<string, unknown> | undefined;
  const concrete = isObjectType(type) ? [type] : pricing.schema.getPossibleTypes(type).filter((t) => !answered?.__typename || t.name === answered.__typename);
  let dearest = 0;
  for (const object of concrete) {
    let cost = 0;
    for (const field of fieldsOn(pricing, object, selectionSet)) {
      if (field.name.value.startsWith("__")) continue;
      const definition = object.getFields()[field.name.value];
      if (!definition) throw new Error(`${pricing.operation}: ${object.name} has no field ${field.name.value}`);
      cost += fieldCost(pricing, definition, field, answered === undefined ? undefined : answered[field.alias?.value ?? field.name.value]);
    }
    dearest = Math.max(dearest, cost);
  }
  return dearest;
}

const isConnection = (field: GraphQLField<unknown, unknown>) =>
  getNamedType(field.type).name.endsWith("Connection") && field.args.some((a) => a.name === "first") && field.args.some((a) => a.name === "last");

/** One field; `data` is its value in the answer (undefined: pricing the request). */
function fieldCost(pricing: Pricing, definition: GraphQLField<unknown, unknown>, field: FieldNode, data: unknown): number {
  const named = getNamedType(definition.type);
  if (isLeafType(named)) return 0;
  const type = named as GraphQLCompositeType;
  if (isConnection(definition)) {
    const size = argument(pricing, field, "first") ?? argument(pricing, field, "last");
    if (size === undefined) throw new Error(`${pricing.operation}: the connection ${field.name.value} names no page size (first or last)`);
    if (data === null) return 0;
    return 2 + connectionCost(pricing, type as GraphQLObjectType, field.selectionSet!, size, data as Record<string, unknown> | undefined);
  }
  if (isListType(getNullableType(definition.type))) {
    if (data === null) return 0;
    if (data !== undefined) return (data as unknown[]).reduce<number>((sum, item) => sum + objectCost(pricing, type, field.selectionSet!, item), 0);
    return (argument(pricing, field, "first") ?? 1) * objectCost(pricing, type, field.selectionSet!, undefined);
  }
  return objectCost(pricing, type, field.selectionSet!, data);
}

/** An object: 1, and what is selected in it (nothing of an object the answer left null). */
function objectCost(pricing: Pricing, type: GraphQLCompositeType, selectionSet: SelectionSetNode, data: unknown): number {
  if (data === null) return 0;
  return 1 + selectionCost(pricing, type, selectionSet, data);
}

/**
 * The page of a connection: its size times one node (asked for as `nodes` or
 * `edges { node }`, whichever costs more), and its other fields (pageInfo).
 * Given the answer, the nodes it holds.
 */
function connectionCost(pricing: Pricing, connection: GraphQLObjectType, selectionSet: SelectionSetNode, size: number, data: Record<string, unknown> | undefined): number {
  const fields = connection.getFields();
  let page = 0;
  let rest = 0;
  for (const field of fieldsOn(pricing, connection, selectionSet)) {
    const name = field.name.value;
    const value = data?.[field.alias?.value ?? name];
    if (name === "nodes" || name === "edges") {
      const item = getNamedType(fields[name]!.type) as GraphQLObjectType;
      // A node is an object (1 and its fields); an edge costs what its node does.
      const one = (element: unknown) =>
        name === "nodes" ? objectCost(pricing, item, field.selectionSet!, element) : selectionCost(pricing, item, field.selectionSet!, element);
      const cost = data ? ((value as unknown[] | null) ?? []).reduce<number>((sum, element) => sum + one(element), 0) : size * one(undefined);
      page = Math.max(page, cost);
    } else if (!name.startsWith("__")) {
      rest += fieldCost(pricing, fields[name]!, field, value);
    }
  }
  return page + rest;
}

function argument(pricing: Pricing, field: FieldNode, name: string): number | undefined {
  const value: ValueNode | undefined = field.arguments?.find((a) => a.name.value === name)?.value;
  if (!value || value.kind === Kind.NULL) return undefined;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const given = pricing.variables[value.name.value];
    if (given === undefined || given === null) return undefined;
    if (typeof given !== "number") throw new Error(`${pricing.operation}: $${value.name.value} is not a number`);
    return given;
  }
  throw new Error(`${pricing.operation}: ${field.name.value}(${name}:) is not a number`);
}
