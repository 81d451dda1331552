/**
 * A handle that stands for whatever `now()` returns when it is used: a test
 * file's sandbox or server, started in beforeAll. A test file takes it once,
 * at the top, and uses it like the thing itself: its properties are read and
 * written through, its methods run on it. It is a different object from the
 * thing, so it suits what lives as long as the file; a test's own page is not
 * one (a map keyed by the page would see the same key in every test).
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
  });
}
