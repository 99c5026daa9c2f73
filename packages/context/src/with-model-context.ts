import { getCurrentSystemMessage } from '@earendil-works/pi-ai';
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
 * so the backfilled snapshot, and with `systemPrompt` the prompt actually sent, are counted where
 * Pi decides to compact. With `systemPrompt` set, `appendMessage()` also skips a system message
 * that changes nothing in the raw session (Pi re-declaring its own sections, which it no longer
 * sees in the projection).
 */
export function withModelContext<T extends SessionManager>(
  sessionManager: T,
  options: ModelContextOptionsSource,
): T {
  const resolve: () => ModelContextOptions =
    typeof options === 'function' ? options : () => options;
  const buildSessionProjection = () => projectSessionContext(sessionManager, resolve());
  const buildSessionContext = (): SessionContext => {
    const { messages, thinkingLevel, model } = buildSessionProjection();
    return { messages, thinkingLevel, model };
  };
  // With Repa's system message in the projection, Pi re-declares its own prompt sections before a
  // tool follow-up turn; applied to the raw session that patch changes nothing, so it is not
  // written (the session would otherwise gain a copy of Pi's prompt on every such turn).
  const appendMessage = (message: Parameters<SessionManager['appendMessage']>[0]) => {
    if (
      message.role === 'system' &&
      resolve().systemPrompt !== undefined &&
      changesNothing(sessionManager, message)
    ) {
      return undefined as unknown as string;
    }
    return sessionManager.appendMessage(message);
  };
  const bound = new Map<PropertyKey, { original: unknown; bound: unknown }>();
  const proxy = new Proxy(sessionManager, {
    get(target, property) {
      if (property === 'buildSessionProjection') return buildSessionProjection;
      if (property === 'buildSessionContext') return buildSessionContext;
      if (property === 'appendMessage') return appendMessage;
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

/** True when appending the system `message` would leave the raw session's prompt and tools as they are. */
function changesNothing(
  sessionManager: SessionManager,
  message: Parameters<SessionManager['appendMessage']>[0],
): boolean {
  const messages = sessionManager.buildSessionProjection().messages;
  return sameSystemState(
    getCurrentSystemMessage(messages),
    getCurrentSystemMessage([...messages, message]),
  );
}

type SystemState = ReturnType<typeof getCurrentSystemMessage>;

/**
 * Whether two replayed system states have the same prompt text, sections (in order) and tools,
 * exactly as their JSON would compare, without serialising the whole prompt: an unchanged section
 * or tool is usually the same string or object on both sides.
 */
function sameSystemState(before: SystemState, after: SystemState): boolean {
  if ((before?.content ?? '') !== (after?.content ?? '')) return false;
  const sections = (state: SystemState) =>
    Object.entries(state?.sections ?? {}).filter(([, value]) => value !== undefined);
  const left = sections(before);
  const right = sections(after);
  if (left.length !== right.length) return false;
  const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
  if (
    !left.every(
      ([name, text], index) => name === right[index]?.[0] && same(text, right[index]?.[1]),
    )
  ) {
    return false;
  }
  const toolsBefore = before?.toolsAdded ?? [];
  const toolsAfter = after?.toolsAdded ?? [];
  return (
    toolsBefore.length === toolsAfter.length &&
    toolsBefore.every((tool, index) => same(tool, toolsAfter[index]))
  );
}
