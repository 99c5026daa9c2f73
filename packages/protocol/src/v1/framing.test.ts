import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, MAX_MESSAGE_DEPTH } from './framing.js';

describe('FrameDecoder', () => {
  it('decodes frames split across chunks and several frames in one chunk', () => {
    const decoder = new FrameDecoder();
    const bytes = Buffer.from(encodeFrame({ a: 1 }) + encodeFrame({ b: 'é' }) + encodeFrame([3]));
    const frames = [
      ...decoder.push(bytes.subarray(0, 5)),
      ...decoder.push(bytes.subarray(5, 14)),
      ...decoder.push(bytes.subarray(14)),
    ];
    expect(frames).toEqual([
      { ok: true, value: { a: 1 } },
      { ok: true, value: { b: 'é' } },
      { ok: true, value: [3] },
    ]);
    expect(decoder.pendingBytes).toBe(0);
  });

  it('reports a malformed line as invalid_request and keeps decoding', () => {
    const decoder = new FrameDecoder();
    const frames = decoder.push(Buffer.from('{nope\n{"ok":true}\n'));
    expect(frames[0]).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(frames[1]).toEqual({ ok: true, value: { ok: true } });
  });

  it('refuses an oversized frame before buffering the rest of it', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 16 });
    decoder.push(Buffer.from('{"a":"12345'));
    expect(decoder.push(Buffer.from('6789012345678'))).toEqual([
      { ok: false, fatal: true, error: expect.objectContaining({ code: 'message_too_large' }) },
    ]);
    expect(decoder.pendingBytes).toBe(0);
  });

  it('keeps the frames completed before an oversized one in the same chunk', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 16 });
    const frames = decoder.push(
      Buffer.from('{"id":1}\n{"id":2}\n{"a":"0123456789012345"}\n{"id":3}\n'),
    );
    expect(frames.map((frame) => (frame.ok ? frame.value : frame.error.code))).toEqual([
      { id: 1 },
      { id: 2 },
      'message_too_large',
    ]);
  });

  it('holds a half frame until its newline arrives', () => {
    const decoder = new FrameDecoder();
    expect(decoder.push(Buffer.from('{"half":'))).toEqual([]);
    expect(decoder.pendingBytes).toBe(8);
    expect(decoder.push(Buffer.from('1}\n'))).toEqual([{ ok: true, value: { half: 1 } }]);
  });

  describe('checks of untrusted input', () => {
    const strict = () => new FrameDecoder({ maxDepth: MAX_MESSAGE_DEPTH, refuseUnsafeKeys: true });

    it('names the byte offset of invalid UTF-8, past a U+FFFD that was sent as such', () => {
      const head = Buffer.from('{"a":"\uFFFD');
      const [frame] = new FrameDecoder().push(
        Buffer.concat([head, Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]),
      );
      expect(frame).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', details: { offset: head.length } },
      });
    });

    it('counts nesting only outside strings', () => {
      const inString = JSON.stringify({ text: '[{'.repeat(1000) });
      expect(strict().push(Buffer.from(`${inString}\n`))).toEqual([
        { ok: true, value: JSON.parse(inString) },
      ]);
      const escapedQuote = `{"a":"\\"${'['.repeat(200)}"}`;
      expect(strict().push(Buffer.from(`${escapedQuote}\n`))[0]?.ok).toBe(true);
    });

    it('refuses a 10⁶-deep value without overflowing the stack', () => {
      const depth = 1_000_000;
      const [frame] = strict().push(Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}\n`));
      expect(frame).toMatchObject({ ok: false, error: { details: { limit: MAX_MESSAGE_DEPTH } } });
    });

    it('refuses unsafe keys with their path and the parsed message, only when asked', () => {
      const line = Buffer.from('{"id":4,"params":{"list":[{"ok":1},{"constructor":1}]}}\n');
      const [frame] = strict().push(line);
      expect(frame).toMatchObject({
        ok: false,
        value: { id: 4 },
        error: { code: 'invalid_request', details: { path: 'params.list.1.constructor' } },
      });
      expect(new FrameDecoder().push(line)[0]?.ok).toBe(true);
    });

    it('refuses an unsafe key spelt with \\u escapes', () => {
      const [frame] = strict().push(Buffer.from('{"a":{"__proto\\u005f_":{}}}\n'));
      expect(frame).toMatchObject({ ok: false, error: { details: { path: 'a.__proto__' } } });
    });
  });
});
