import type { Page } from "./types";

export interface IterateOptions {
  /** First page to read (default 1). */
  startPage?: number;
  /** Safety stop (default 10 000 pages, i.e. a million items). */
  maxPages?: number;
}

/**
 * Yields every item of a paged v2 list, page after page, until a page says
 * there is no more. Stops too if a page repeats the previous one (a service
 * that ignores `page` must not make this loop forever).
 */
export async function* iteratePages<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  identify: (item: T) => string,
  { startPage = 1, maxPages = 10_000 }: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  let previousFirst: string | undefined;
  for (let page = startPage; page < startPage + maxPages; page += 1) {
    const { items, hasMore } = await fetchPage(page);
    if (items.length === 0) return;
    const first = identify(items[0]);
    if (first === previousFirst) return;
    previousFirst = first;
    yield* items;
    if (!hasMore) return;
  }
}
