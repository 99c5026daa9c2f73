import { packageTests } from '../../vitest.base.ts';

export default packageTests({ include: ['src/**/*.test.ts'] });
