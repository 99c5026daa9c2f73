import { RepaError, type V1Method } from '@repa/protocol';
import { invalidRequestFromZod, v1Methods } from '@repa/protocol/schemas';
import type { z } from 'zod';
import type { ConnectionContext, RepaHandledMethod, RepaHandlers } from './repa-handlers.js';
import { schemaRefusal } from './schema-refusal.js';

type AnyHandler = (params: unknown, context: ConnectionContext) => Promise<unknown>;

/**
 * The one place the server calls the application's handlers: params are checked against the
 * protocol's method table first, handlers still being made (the application opening) are waited
 * for, each call is reported to `onRequest`, and results are checked too.
 */
export class MethodTable {
  /** The handlers, once known. */
  #handlers: RepaHandlers | undefined;
  readonly #coming: Promise<RepaHandlers> | undefined;
  readonly #onRequest: ((method: RepaHandledMethod) => (() => void) | undefined) | undefined;

  constructor(
    handlers: RepaHandlers | Promise<RepaHandlers>,
    onRequest?: (method: RepaHandledMethod) => (() => void) | undefined,
  ) {
    this.#onRequest = onRequest;
    if ('then' in handlers) {
      this.#coming = Promise.resolve(handlers);
      // A failure reaches each request waiting for the handlers, answered as its error.
      this.#coming.then(
        (ready) => {
          this.#handlers = ready;
        },
        () => {},
      );
    } else this.#handlers = handlers;
  }

  /**
   * Whether `method` is answered here: a v1 method (not `initialize`) with a handler, or any v1
   * method while the handlers are still being made.
   */
  serves(method: string): method is RepaHandledMethod {
    if (method === 'initialize' || !Object.hasOwn(v1Methods, method)) return false;
    return (
      this.#handlers === undefined || this.#handlers[method as RepaHandledMethod] !== undefined
    );
  }

  /**
   * Calls the handler of `method` with its params checked (`invalid_request`); a handler missing
   * once the handlers are known is `method_not_found`, an invalid result an `Error`.
   */
  async call(
    method: RepaHandledMethod,
    rawParams: unknown,
    context: ConnectionContext,
  ): Promise<unknown> {
    const spec = v1Methods[method as V1Method];
    const params = (spec.params as z.ZodType).safeParse(rawParams ?? {});
    if (!params.success) throw schemaRefusal(invalidRequestFromZod(params.error, rawParams ?? {}));
    const done = this.#onRequest?.(method);
    let result: unknown;
    try {
      const handlers = this.#handlers ?? (await this.#coming);
      const handler = handlers?.[method] as AnyHandler | undefined;
      if (handler === undefined) {
        throw new RepaError('method_not_found', `This daemon has no method ${method}.`, {
          details: { method },
        });
      }
      result = await handler(params.data, context);
    } finally {
      done?.();
    }
    // Results are checked at run time too: a handler bug becomes an `internal` error here, named
    // and logged once, instead of an unusable answer every client has to diagnose on its own.
    const checked = (spec.result as z.ZodType).safeParse(result);
    if (!checked.success) {
      throw new Error(
        `The ${method} handler returned an invalid result: ${invalidRequestFromZod(checked.error, result, 'result').message}`,
      );
    }
    return result;
  }
}
