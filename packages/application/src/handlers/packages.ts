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
}: Pick<HandlerParts, 'models' | 'trust' | 'hosts'>): NamespaceHandlers<'packages'> {
  // A listing makes nothing a space; a change naming a space opens it (method-folders.ts).
  const scopeOf = async (space: string | undefined) => {
    const agentDir = (await models.models()).agentDir;
    if (space === undefined) return { agentDir, trusted: false };
    return { agentDir, space, trusted: await trust.isTrusted(space) };
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
      ...(await scopeOf(level === 'space' ? params.space : undefined)),
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
