import { describe, expect, it } from 'vitest';
import { isActive, isResumable, isRetryable } from './run-status.js';

describe('what the page offers for a run, by its status', () => {
  it.each([
    // status, Cancel, Retry, Resume
    ['accepted', true, false, false],
    ['running', true, false, false],
    ['succeeded', false, false, false],
    ['failed', false, true, true],
    ['cancelled', false, true, false],
    ['interrupted', false, true, true],
  ])('%s: active %s, retryable %s, resumable %s', (status, active, retryable, resumable) => {
    expect([isActive(status), isRetryable(status), isResumable(status)]).toEqual([
      active,
      retryable,
      resumable,
    ]);
  });
});
