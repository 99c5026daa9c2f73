import { LOADS_PI, PI_OFFLINE, packageTests } from '../../vitest.base.ts';

export default packageTests(LOADS_PI, PI_OFFLINE);
