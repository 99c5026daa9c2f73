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
  // The raw session's replayed system state is kept with the leaf it was taken at, so this check
  // does not project the whole session before every turn.
  let known: { leafId: string | null; state: SystemState } | undefined;
  const appendMessage = (message: Parameters<SessionManager['appendMessage']>[0]) => {
    if (message.role !== 'system' || resolve().systemPrompt === undefined) {
      return sessionManager.appendMessage(message);
    }
    const leafId = sessionManager.getLeafId();
    const before =
      known !== undefined && systemStateKept(sessionManager, known.leafId, leafId)
        ? known.state
        : getCurrentSystemMessage(sessionManager.buildSessionProjection().messages);
    // Replaying the replayed state and then `message` gives what replaying the whole branch would.
    const after = getCurrentSystemMessage(before === undefined ? [message] : [before, message]);
    if (sameSystemState(before, after)) {
      known = { leafId, state: before };
      return undefined as unknown as string;
    }
    const id = sessionManager.appendMessage(message);
    known = { leafId: id, state: after };
    return id;
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

/** Entry types that never change the projected system state (prompt, sections, tools). */
const STATELESS_ENTRIES = new Set(['custom_message', 'custom', 'usage', 'label', 'session_info']);
/** How far back a kept system state is followed before the session is projected again. */
const MAX_WALK = 256;

/**
 * True when the branch at `leafId` extends the one at `keptLeafId` with entries that cannot change
 * the system state: non-system messages and state-only entries. A compaction, a context edit, a
 * system message or a move to another branch means the state must be replayed again.
 */
function systemStateKept(
  sessionManager: SessionManager,
  keptLeafId: string | null,
  leafId: string | null,
): boolean {
  let id = leafId;
  for (let steps = 0; steps <= MAX_WALK; steps++) {
    if (id === keptLeafId) return true;
    if (id === null) return false;
    const entry = sessionManager.getEntry(id);
    if (entry === undefined) return false;
    const stateless =
      entry.type === 'message'
        ? entry.message.role !== 'system'
        : STATELESS_ENTRIES.has(entry.type);
    if (!stateless) return false;
    id = entry.parentId;
  }
  return false;
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
