// Type-level checks the wire-type tests use: whether an interface and a schema's type are the same.

/** The named (non-index-signature) keys of `T`. */
type NamedKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K];
};
/** `true` when `A` and `B` name the same keys and each is assignable to the other. */
export type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [NamedKeys<A>] extends [NamedKeys<B>]
      ? [NamedKeys<B>] extends [NamedKeys<A>]
        ? true
        : false
      : false
    : false
  : false;
/** Accepts only `true`. */
export type Holds<T extends true> = T;
