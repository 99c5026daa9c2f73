import { describe, expect, it } from 'vitest';
import { renderWireTypes } from './render-wire-types.js';

describe('renderWireTypes', () => {
  it('matches the checked-in src/v1/wire-types.generated.ts (run `pnpm --filter @repa/protocol schema`)', async () => {
    await expect(renderWireTypes()).toMatchFileSnapshot(
      '../wire-types.generated.ts',
      'src/v1/wire-types.generated.ts is stale: run `pnpm --filter @repa/protocol schema`',
    );
  });
});
