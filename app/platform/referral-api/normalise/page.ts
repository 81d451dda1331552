import { readFields } from "../field-reader";
import { parseNumber } from "../scalars";
import type { Page } from "../types";

/** The v2 list operations return at most this many items per page. */
export const PAGE_SIZE = 100;

/**
 * One page of a v2 list: the items under `key`. Paging metadata is not
 * documented; if the service sends `next`, `has_more` or `total_pages` they
 * decide `hasMore`, otherwise a full page means there may be more.
 */
export function normalisePage<T>(data: unknown, key: string, page: number, item: (raw: unknown) => T): Page<T> {
  const r = readFields(data, "list");
  const items = r.array(key).map(item);
  const extra = r.extra();
  let hasMore = items.length >= PAGE_SIZE;
  if ("next" in extra) hasMore = extra.next !== null && extra.next !== "" && extra.next !== false;
  else if ("has_more" in extra) hasMore = extra.has_more === true || extra.has_more === 1 || extra.has_more === "1";
  else if ("total_pages" in extra) hasMore = page < (parseNumber(extra.total_pages) ?? page);
  if (items.length === 0) hasMore = false;
  return { items, page, hasMore, extra };
}
