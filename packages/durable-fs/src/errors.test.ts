import { RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { errnoCode, ioError } from './errors.js';

describe('errnoCode', () => {
  it('reads a string code and nothing else', () => {
    expect(errnoCode(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe('ENOSPC');
    expect(errnoCode(Object.assign(new Error('x'), { code: 5 }))).toBeUndefined();
    expect(errnoCode('ENOSPC')).toBeUndefined();
    expect(errnoCode(null)).toBeUndefined();
  });
});

describe('ioError', () => {
  it('wraps an errno failure as io_error with what failed, its errno and the details given', () => {
    const cause = Object.assign(new Error('no space left'), { code: 'ENOSPC' });
    const error = ioError(cause, 'Writing /x/y', { path: '/x/y' });
    expect(error.code).toBe('io_error');
    expect(error.message).toBe('Writing /x/y failed (ENOSPC): no space left');
    expect(error.details).toEqual({ path: '/x/y', errno: 'ENOSPC' });
    expect(error.cause).toBe(cause);
  });

  it('passes a RepaError unchanged', () => {
    const original = new RepaError('busy', 'held');
    expect(ioError(original, 'Writing')).toBe(original);
  });
});
