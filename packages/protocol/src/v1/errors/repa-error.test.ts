import { describe, expect, expectTypeOf, it } from 'vitest';
import { isRepaErrorCode, REPA_ERROR_CODES, RepaError, type RepaErrorCode } from './repa-error.js';

describe('RepaError', () => {
  it('carries the code, message, default fix and details', () => {
    const error = new RepaError('stale_version', 'notes.md changed', {
      details: { current: 'abc' },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('stale_version');
    expect(error.fix).toMatch(/read it again/);
    expect(error.details).toEqual({ current: 'abc' });
  });

  it('has every code the protocol promises, each with a fix', () => {
    for (const code of [
      'invalid_request',
      'unsupported_version',
      'method_not_found',
      'busy',
      'not_found',
      'read_required',
      'stale_version',
      'path_outside_space',
      'protected_path',
      'settings_corrupt',
      'data_corrupt',
      'idempotency_mismatch',
      'context_unavailable',
      'session_damaged',
      'cancelled',
      'sandbox_unavailable',
      'material_not_granted',
      'file_too_large',
      'internal',
    ] as const) {
      expect(REPA_ERROR_CODES).toContain(code);
      expect(new RepaError(code, 'x').fix.length).toBeGreaterThan(10);
    }
  });

  it('round-trips through the wire unchanged', () => {
    const error = new RepaError('busy', 'session s1 has an active run', {
      fix: 'wait',
      details: { runId: 'r1' },
    });
    const wire = JSON.parse(JSON.stringify(error.toWire()));
    const back = RepaError.fromWire(wire);
    expect(back.toWire()).toEqual(error.toWire());
  });

  it('passes unknown codes from a newer server through unchanged', () => {
    const back = RepaError.fromWire({ code: 'quota_exceeded', message: 'm', fix: 'f' });
    expect(back.code).toBe('quota_exceeded');
  });

  it('types code as a known code or any string, and isRepaErrorCode narrows it to the known ones', () => {
    const back = RepaError.fromWire({ code: 'quota_exceeded', message: 'm', fix: 'f' });
    expectTypeOf(back.code).toEqualTypeOf<RepaErrorCode | (string & {})>();
    expect(isRepaErrorCode(back.code)).toBe(false);
    expect(isRepaErrorCode('toString')).toBe(false);
    const known = RepaError.fromWire({ code: 'busy', message: 'm', fix: 'f' });
    expect(isRepaErrorCode(known.code)).toBe(true);
    if (isRepaErrorCode(known.code)) expectTypeOf(known.code).toEqualTypeOf<RepaErrorCode>();
  });

  it('has the unauthorized code with its fix', () => {
    expect(new RepaError('unauthorized', 'wrong token').fix).toBe(
      "Authenticate with the daemon's token (see its app directory) before calling other methods.",
    );
  });

  it('turns a malformed wire error into an internal error', () => {
    expect(RepaError.fromWire({ message: 1 }).code).toBe('internal');
  });

  it('recognises instances from a duplicate copy of the package', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('repa.error')]: true,
      code: 'busy',
    });
    expect(RepaError.isInstance(foreign)).toBe(true);
    expect(RepaError.isInstance(new Error('x'))).toBe(false);
    expect(RepaError.isInstance(null)).toBe(false);
  });

  it('wraps unknown errors as internal, keeping the cause', () => {
    const cause = new TypeError('boom');
    const error = RepaError.fromUnknown(cause);
    expect(error.code).toBe('internal');
    expect(error.cause).toBe(cause);
    const same = new RepaError('busy', 'b');
    expect(RepaError.fromUnknown(same)).toBe(same);
  });

  it('tells the same error with another message, keeping code, fix, details and even an unknown code', () => {
    const original = new RepaError('stale_version', 'old', {
      fix: 'Read again.',
      details: { a: 1 },
    });
    const told = original.withMessage('new');
    expect(told.toWire()).toEqual({
      code: 'stale_version',
      message: 'new',
      fix: 'Read again.',
      details: { a: 1 },
    });
    expect(told.cause).toBe(original);
    const newer = RepaError.fromWire({ code: 'from_the_future', message: 'm', fix: 'f' });
    expect(newer.withMessage('n').code).toBe('from_the_future');
  });
});
