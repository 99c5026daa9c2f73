import { describe, expect, it } from 'vitest';
import * as protocol from '../index.js';
import * as internal from '../internal/index.js';
import * as schemas from '../schemas.js';
import { runInputSchema } from './run-input.js';
import { isTerminalRunStatus, runStatusSchema } from './runs.js';

describe('isTerminalRunStatus', () => {
  it('is false for accepted and running and true for every other status', () => {
    const terminal = runStatusSchema.options.filter((status) => isTerminalRunStatus(status));
    expect(terminal).toEqual(['succeeded', 'failed', 'cancelled', 'interrupted']);
  });
});

describe('entry points', () => {
  it('keeps server-side transport out of the public entry and in ./internal', () => {
    for (const name of ['encodeFrame', 'FrameDecoder', 'errorResponse']) {
      expect(Object.keys(protocol)).not.toContain(name);
      expect(Object.keys(internal)).toContain(name);
    }
    expect(Object.keys(protocol)).toContain('isTerminalRunStatus');
  });

  it('exports every zod schema from ./schemas alone', () => {
    const isSchema = (value: unknown) =>
      typeof value === 'object' && value !== null && 'safeParse' in value;
    const schemasIn = (entry: Record<string, unknown>) =>
      Object.keys(entry).filter((name) => isSchema(entry[name]));
    expect(schemasIn(protocol)).toEqual([]);
    expect(schemasIn(internal)).toEqual([]);
    expect(schemasIn(schemas)).toContain('tcpAuthParamsSchema');
    expect(schemasIn(schemas)).toContain('runInfoSchema');
  });
});

describe('runInputSchema images', () => {
  const image = (bytes: number) => ({
    kind: 'data' as const,
    data: Buffer.alloc(bytes).toString('base64'),
    mimeType: 'image/png' as const,
  });
  const mib = 1024 * 1024;

  it('refuses inline images over RUN_IMAGES_MAX_INLINE_BYTES in all, naming the limit', () => {
    const input = { type: 'text', text: 'Look.', images: [image(3.5 * mib), image(3.5 * mib)] };
    const parsed = runInputSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('5 MiB in all');
    expect(protocol.RUN_IMAGES_MAX_INLINE_BYTES).toBe(5 * mib);
  });

  it('accepts inline images up to the limit, and file images beside them', () => {
    const input = {
      type: 'text',
      text: 'Look.',
      images: [image(4 * mib), image(mib), { kind: 'file', path: 'big.png' }],
    };
    expect(runInputSchema.safeParse(input).success).toBe(true);
  });
});
