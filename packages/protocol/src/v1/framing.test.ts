import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder } from './framing.js';

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
});
