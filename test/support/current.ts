/**
 * A handle that stands for whatever `now()` returns when it is used: a test
 * file's server, started in beforeAll, or a test's page, opened in beforeEach.
 * A test file takes it once, at the top, and uses it like the thing itself:
 * its properties are read and written through, its methods run on it, and
 * `instanceof` sees its class (Playwright checks that a page is a Page).
 */
export function current<T extends object>(what: string, now: () => T | undefined): T {
  const target = (): T => {
    const value = now();
    if (!value) throw new Error(`${what} is used before the hook that makes it has run`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, property) {
      const it = target();
      const value = Reflect.get(it, property, it);
      return typeof value === "function" ? value.bind(it) : value;
    },
    set: (_, property, value) => Reflect.set(target(), property, value),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
}
