import { PassThrough } from 'node:stream';
import { RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { cliFix, writeError } from './write-error.js';

describe('cliFix', () => {
  it('names repa commands instead of protocol methods', () => {
    expect(cliFix('Read the settings again (settings.get), then retry.')).toBe(
      'Read the settings again (repa settings get), then retry.',
    );
    expect(cliFix('List the sessions (session.list) or create one (session.create).')).toBe(
      'List the sessions (repa sessions list) or create one (repa sessions new).',
    );
    expect(
      cliFix(
        'Call again: the client reconnects. run.submit and run.retry are idempotent by requestId.',
      ),
    ).toBe('Run the command again; repa run with the same --request-id returns the original run.');
    expect(cliFix('Submit the text as a new run (delivery new or queue) instead of steer.')).toBe(
      'Submit the text as a new run with repa run TEXT (or repa run --queue TEXT) instead of steer.',
    );
    expect(
      cliFix(
        'The target run ended before the message was delivered; submit it again with delivery queue (or new) to run it on its own.',
      ),
    ).toBe(
      'The target run ended before the message was delivered; submit it again with repa run TEXT (or repa run --queue TEXT) to run it on its own.',
    );
    expect(cliFix('Edit notes/settings.get.md by hand.')).toBe(
      'Edit notes/settings.get.md by hand.',
    );
  });
});

describe('writeError', () => {
  it('writes one JSON line on stdout when asked, and nothing on stderr', () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    writeError(stderr, new RepaError('not_found', 'No run x.', { fix: 'See run.list.' }), {
      stdout,
    });
    expect(JSON.parse(String(stdout.read()))).toEqual({
      kind: 'error',
      code: 'not_found',
      message: 'No run x.',
      fix: 'See repa runs list.',
    });
    expect(stderr.read()).toBeNull();
  });
});
