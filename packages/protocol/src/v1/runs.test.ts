import { describe, expect, it } from 'vitest';
import * as protocol from '../index.js';
import * as internal from '../internal/index.js';
import { isTerminalRunStatus, runStatusSchema } from './runs.js';

describe('isTerminalRunStatus', () => {
  it('is false for accepted and running and true for every other status', () => {
    const terminal = runStatusSchema.options.filter((status) => isTerminalRunStatus(status));
    expect(terminal).toEqual(['succeeded', 'failed', 'cancelled', 'interrupted']);
  });
});

describe('entry points', () => {
  it('keeps server-side transport out of the public entry and in ./internal', () => {
    for (const name of ['encodeFrame', 'FrameDecoder', 'errorResponse', 'tcpAuthParamsSchema']) {
      expect(Object.keys(protocol)).not.toContain(name);
      expect(Object.keys(internal)).toContain(name);
    }
    expect(Object.keys(protocol)).toContain('isTerminalRunStatus');
  });
});
