import { appBuild } from '../../tsup.base.ts';

// The protocol and zod in the bundle: a command loads one file instead of resolving and linking a
// hundred modules (zod's), which every `repa` process paid at start.
export default appBuild({ noExternal: ['@repa/protocol', 'zod'] });
