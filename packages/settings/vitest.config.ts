import { LOADS_PI, packageTests } from '../../vitest.base.ts';

export default packageTests(LOADS_PI);
