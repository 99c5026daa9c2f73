import { RepaError } from '@repa/protocol';
import { loadHost } from '../load-host.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/**
 * `packages.*`: Pi packages through Pi's package manager (spec R75), at the application level (the
 * learner's Pi settings) or a trusted space's. A change reaches each session at its next run.
 */
export function packagesHandlers({
  models,
  trust,
  hosts,
  space: admitted,
  folder,
}: Pick<
  HandlerParts,
  'models' | 'trust' | 'hosts' | 'space' | 'folder'
>): NamespaceHandlers<'packages'> {
  // A listing makes nothing a space; a change at the space level does (as a run there would).
  const scopeOf = async (space: string | undefined, admit = false) => {
    const agentDir = (await models.models()).agentDir;
    if (space === undefined) return { agentDir, trusted: false };
    const root = admit ? await admitted(space) : await folder(space);
    return { agentDir, space: root, trusted: await trust.isTrusted(root) };
  };
  const changeOf = async (params: {
    source: string;
    level?: 'application' | 'space';
    space?: string;
  }) => {
    const level = params.level ?? 'application';
    if (level === 'space' && params.space === undefined) {
      throw new RepaError('invalid_request', 'The space level needs a space.', {
        details: { field: 'space' },
      });
    }
    return {
      ...(await scopeOf(level === 'space' ? params.space : undefined, true)),
      source: params.source,
      level,
    };
  };
  return {
    'packages.list': async (params) => ({
      ...(await (await loadHost()).listPiPackages(await scopeOf(params.space))),
    }),
    'packages.add': async (params) => {
      const result = await (await loadHost()).addPiPackage(await changeOf(params));
      await hosts.packagesChanged();
      return result;
    },
    'packages.remove': async (params) => {
      const result = await (await loadHost()).removePiPackage(await changeOf(params));
      return { ...result, activeRuns: await hosts.packagesChanged() };
    },
  };
}
