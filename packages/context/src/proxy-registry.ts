/** Proxies made by `withModelContext`, mapped to the SessionManager they wrap. */
const originals = new WeakMap<object, object>();

/** Records that `proxy` wraps `original`. */
export function registerProxy(proxy: object, original: object): void {
  originals.set(proxy, original);
}

/** The SessionManager behind a `withModelContext` proxy, or `manager` itself. */
export function originalOf<T extends object>(manager: T): T {
  return (originals.get(manager) as T | undefined) ?? manager;
}
