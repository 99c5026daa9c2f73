import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { loadHost } from '../load-host.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `space.*`: the spaces opened, a space's root, learning context and trust (spec R13). */
export function spaceHandlers({
  gate,
  trust,
  settings,
}: Pick<HandlerParts, 'gate' | 'trust' | 'settings'>): NamespaceHandlers<'space'> {
  return {
    'space.open': async (params) => {
      const root = params.root;
      trust.addOpened(root);
      const view = await (await loadHost()).getLearningContext(root);
      const learningContext = view
        ? { revision: view.revision, chars: view.body.length, sources: view.sources }
        : null;
      const trustReason = await trust.reasonOf(root);
      const restricted = await trust.restricted(root, settings);
      return {
        space: {
          root,
          name: basename(root),
          learningContext,
          trusted: trustReason !== undefined,
          trustReason,
          restricted,
        },
      };
    },
    // A space the home rule keeps out (opened before it, design R17) is not listed.
    'space.list': async () => {
      const spaces = await Promise.all(
        trust.opened().map(async ({ space: root, openedAt }) => {
          if (await gate.refuses(root)) return [];
          const missing = !(await stat(root).then(
            (found) => found.isDirectory(),
            () => false,
          ));
          return [
            { root, name: basename(root), openedAt, missing, trusted: await trust.isTrusted(root) },
          ];
        }),
      );
      return { spaces: spaces.flat() };
    },
    'space.trust': async (params) => {
      const root = params.space;
      // What trusting enables is what is restricted before; what distrust restricts, after.
      const before = await trust.restricted(root, settings);
      const wasTrusted = await trust.set(root, params.trusted);
      const restricted = params.trusted ? before : await trust.restricted(root, settings);
      return { space: root, trusted: params.trusted, wasTrusted, restricted };
    },
  };
}
