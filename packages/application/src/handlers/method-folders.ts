import type { V1Params } from '@repa/protocol';
import type { FolderGate } from '../folder-gate.js';
import type { RepaHandledMethod } from '../server/repa-handlers.js';

/**
 * What a method does to the folder its params name (`space`, or `root` for `space.open`):
 * `opens` — it writes or runs there, so the folder becomes a space (it joins the list, and a plain
 * folder is trusted as one Repa made); `reads` — a query: the folder joins no list, gets no trust
 * and gains no `.repa/` (design R13); `none` — it names no folder.
 */
export type FolderUse = 'opens' | 'reads' | 'none';

/**
 * Every method's use of the folder it names, decided here once (a new method does not compile
 * until it has its line). `files.read` opens: it records the identity of what it reads, and a
 * document's text, in the space's `.repa/`; so do the `study.*` methods (they read every note).
 */
export const METHOD_FOLDERS: { readonly [M in RepaHandledMethod]: FolderUse } = {
  'space.open': 'opens',
  'space.trust': 'opens',
  'space.list': 'none',
  'session.create': 'opens',
  'session.list': 'reads',
  'session.resolve': 'reads',
  'session.history': 'reads',
  'session.subscribe': 'reads',
  'session.unsubscribe': 'reads',
  'session.rename': 'opens',
  'session.compact': 'opens',
  'session.export': 'reads',
  'session.delete': 'opens',
  'run.submit': 'opens',
  'run.get': 'none',
  'run.list': 'reads',
  'run.resolve': 'reads',
  'run.subscribe': 'none',
  'run.cancel': 'none',
  'run.approve': 'none',
  'run.retry': 'none',
  'run.resume': 'none',
  'run.prune': 'reads',
  'run.diff': 'none',
  'run.rewind': 'none',
  'settings.get': 'reads',
  'settings.set': 'opens',
  'settings.reset': 'opens',
  'context.get': 'reads',
  'context.set': 'opens',
  'context.build': 'opens',
  'context.cancel': 'none',
  doctor: 'reads',
  'models.list': 'reads',
  'models.next': 'reads',
  'login.start': 'reads',
  'login.answer': 'none',
  'login.cancel': 'none',
  'login.logout': 'reads',
  'materials.list': 'reads',
  'materials.add': 'opens',
  'materials.remove': 'none',
  'packages.list': 'reads',
  'packages.add': 'opens',
  'packages.remove': 'opens',
  'files.list': 'reads',
  'files.read': 'opens',
  'study.draft': 'opens',
  'study.drafted': 'none',
  'study.accept': 'none',
  'study.due': 'opens',
  'study.rate': 'opens',
  'study.undo': 'opens',
  'study.status': 'opens',
  'study.export': 'opens',
  'study.quiz': 'opens',
  'study.quizzed': 'none',
  'study.answer': 'none',
  'study.check': 'none',
  'study.graded': 'none',
  'study.override': 'opens',
};

/**
 * The params of a call with the folder they name reached as {@link METHOD_FOLDERS} says: its real
 * root in place of the path given, after the home rule (design R17) and the one check of a session
 * id they name. Every handler's params come through here.
 */
export async function reachParams<M extends RepaHandledMethod>(
  gate: FolderGate,
  method: M,
  params: V1Params<M>,
): Promise<V1Params<M>> {
  const use = METHOD_FOLDERS[method];
  const fields = params as {
    root?: unknown;
    space?: unknown;
    sessionId?: unknown;
    named?: unknown;
  };
  const key = method === 'space.open' ? 'root' : 'space';
  const named = fields[key];
  if (use === 'none' || typeof named !== 'string') return params;
  const resolved = await gate.resolve(named, use === 'opens' && fields.named === true);
  if (typeof fields.sessionId === 'string') await gate.session(resolved.root, fields.sessionId);
  if (use === 'opens') await gate.open(resolved);
  return { ...params, [key]: resolved.root };
}
