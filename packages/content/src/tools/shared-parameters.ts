/** The parameters schemas built so far, by the Pi schema they were built from. */
const parametersByBase = new WeakMap<object, object>();

/**
 * The parameters schema built from Pi's own tool schema `base`, built once per process: Pi
 * compiles a validator per schema object, so a schema rebuilt for every session would be compiled
 * again for every session.
 */
export function sharedParameters<T extends object>(base: object, build: () => T): T {
  let parameters = parametersByBase.get(base) as T | undefined;
  if (parameters === undefined) {
    parameters = build();
    parametersByBase.set(base, parameters);
  }
  return parameters;
}
