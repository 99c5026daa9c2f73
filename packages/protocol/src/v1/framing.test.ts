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

  describe('the memory a half frame pins', () => {
    const head = '{"jsonrpc":"2.0","id":1,"method":"run.get","params":{"runId":"';

    it('copies a half frame sent one byte per read into blocks instead of holding each read', () => {
      const decoder = new FrameDecoder();
      decoder.push(Buffer.from(head));
      for (let index = 0; index < 20_000; index++) {
        // Each read of a socket is a buffer of its own, as Node allocates it.
        const read = Buffer.allocUnsafeSlow(1);
        read[0] = 0x61;
        decoder.push(read);
      }
      expect(decoder.pendingBytes).toBe(head.length + 20_000);
      expect(decoder.heldBytes).toBeLessThanOrEqual(decoder.pendingBytes + 16 * 1024);
      const [frame] = decoder.push(Buffer.from('"}}\n'));
      expect(frame).toMatchObject({ ok: true, value: { params: { runId: 'a'.repeat(20_000) } } });
      expect([decoder.pendingBytes, decoder.heldBytes]).toEqual([0, 0]);
    });

    it('copies the start of a frame at the end of a large read rather than pinning the read', () => {
      const decoder = new FrameDecoder();
      const read = Buffer.alloc(64 * 1024, 0x20);
      read.write('{"a":1}\n', 0);
      read.write('{"b":"', read.length - 6);
      expect(decoder.push(read)).toEqual([{ ok: true, value: { a: 1 } }]);
      expect(decoder.pendingBytes).toBe(64 * 1024 - 8);
      // The piece is most of the read: kept as a view, which pins the read's own buffer.
      expect(decoder.heldBytes).toBe(64 * 1024);
      decoder.reset();
      const tail = Buffer.alloc(64 * 1024, 0x20);
      tail.write('\n{"b":"', tail.length - 7);
      decoder.push(tail);
      expect(decoder.pendingBytes).toBe(6);
      expect(decoder.heldBytes).toBeLessThanOrEqual(16 * 1024);
    });

    it('keeps large reads as views: a half frame of whole reads pins just its bytes', () => {
      const decoder = new FrameDecoder();
      for (let index = 0; index < 8; index++) decoder.push(Buffer.alloc(64 * 1024, 0x61));
      expect(decoder.heldBytes).toBe(decoder.pendingBytes);
    });
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
