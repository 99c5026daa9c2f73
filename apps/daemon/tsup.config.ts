import { appBuild } from '../../tsup.base.ts';

export default appBuild();
