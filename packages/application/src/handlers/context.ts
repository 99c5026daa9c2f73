import { loadHost } from '../load-host.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

const SHIPPED_CONTEXT =
  'This learning context came with the folder and Repa did not write it: no run is given it until you trust the space (repa trust) or set a context of your own.';

/**
 * `context.*`: a space's learning context. Writes of one space (`context.set`, `context.build`)
 * are serialized, so each revision check pairs with its write; a build is cancelled by
 * `context.cancel` or by its connection closing.
 */
export function contextHandlers({
  settings,
  trust,
  contextWrites,
  contextBuilds,
}: Pick<
  HandlerParts,
  'settings' | 'trust' | 'contextWrites' | 'contextBuilds'
>): NamespaceHandlers<'context'> {
  return {
    // The context with its sources' states, whether the next run (of `sessionId`, else of a new
    // session) is given it, and the revision that session last got.
    'context.get': async (params) => {
      const root = params.space;
      const host = await loadHost();
      const context = await host.getLearningContext(root);
      const items = await settings.get({ space: root, sessionId: params.sessionId });
      const setting = items.find((item) => item.key === 'prompts.learningContext');
      const provided = { value: setting?.value !== false, source: setting?.source ?? 'default' };
      const shipped =
        context !== null &&
        !(await trust.isTrusted(root)) &&
        !trust.known(root).contexts.includes(host.learningContextDigest(context.body));
      const ignored = shipped ? SHIPPED_CONTEXT : undefined;
      if (params.sessionId === undefined) return { context, provided, ignored };
      const lastProvidedRevision = await host.lastProvidedRevision(root, params.sessionId);
      return { context, provided, lastProvidedRevision, ignored };
    },
    // Replaces the context when its revision is still the expected one (`stale_version` otherwise).
    'context.set': async (params) => {
      const root = params.space;
      const { setLearningContext } = await loadHost();
      const written = await contextWrites.write(root, params.body, () =>
        setLearningContext(root, params),
      );
      return { revision: written.revision, damagedFileKept: written.damagedFileKept };
    },
    'context.build': async (params, connection) =>
      contextBuilds.build(params.space, params, connection),
    'context.cancel': async (params) => ({ cancelled: contextBuilds.cancel(params.buildId) }),
  };
}
