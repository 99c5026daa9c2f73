import type { SessionContext, SessionManager } from '@earendil-works/pi-coding-agent';
import { type ModelContextOptions, projectSessionContext } from './project-session-context.js';
import { registerProxy } from './proxy-registry.js';

/** Options, or a getter read on every projection (so the host can switch sources per run). */
export type ModelContextOptionsSource = ModelContextOptions | (() => ModelContextOptions);

/**
 * A `Proxy` of `sessionManager` to hand to Pi (`createAgentSession({ sessionManager })`) that
 * overrides only `buildSessionProjection()` (with {@link projectSessionContext}) and
 * `buildSessionContext()` (derived from it exactly as Pi derives it). Every other property and
 * method (reads, appends, branching, the file) goes to the original instance, bound to it, so
 * the original keeps reading unaltered history and nothing extra is written (R43–R45).
 * Pi's compaction check, `estimatedTokensAfter` and every model request read this projection,
 * so the backfilled snapshot is counted where Pi decides to compact.
 */
export function withModelContext<T extends SessionManager>(
  sessionManager: T,
  options: ModelContextOptionsSource,
): T {
  const resolve = typeof options === 'function' ? options : () => options;
  const buildSessionProjection = () => projectSessionContext(sessionManager, resolve());
  const buildSessionContext = (): SessionContext => {
    const { messages, thinkingLevel, model } = buildSessionProjection();
    return { messages, thinkingLevel, model };
  };
  const bound = new Map<PropertyKey, { original: unknown; bound: unknown }>();
  const proxy = new Proxy(sessionManager, {
    get(target, property) {
      if (property === 'buildSessionProjection') return buildSessionProjection;
      if (property === 'buildSessionContext') return buildSessionContext;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      // Bind to the original so Pi's internals (`this.buildSessionProjection()` inside
      // `appendCompaction`, private fields) run on the unaltered instance.
      const cached = bound.get(property);
      if (cached?.original === value) return cached.bound;
      const fn = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(property, { original: value, bound: fn });
      return fn;
    },
    set(target, property, value) {
      return Reflect.set(target, property, value, target);
    },
  });
  registerProxy(proxy, sessionManager);
  return proxy;
}
