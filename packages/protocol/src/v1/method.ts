import type { z } from 'zod';

/** One v1 method: what it does, and the schemas of its params and result. */
export interface MethodSchemas<P extends z.ZodType, R extends z.ZodType> {
  /** What the method does (schema/v1.json's description). */
  readonly description: string;
  /** The params' schema. */
  readonly params: P;
  /** The result's schema. */
  readonly result: R;
}

/**
 * A method whose schemas are built on first use: zod builds every schema (and every `.describe()`
 * copy) when it is declared, and a process uses few of the methods, so a `repa` command or a page
 * does not pay for the rest.
 */
export function method<P extends z.ZodType, R extends z.ZodType>(spec: {
  description: string;
  params: () => P;
  result: () => R;
}): MethodSchemas<P, R> {
  let params: P | undefined;
  let result: R | undefined;
  return {
    description: spec.description,
    get params() {
      params ??= spec.params();
      return params;
    },
    get result() {
      result ??= spec.result();
      return result;
    },
  };
}
