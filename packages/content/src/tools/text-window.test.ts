import { createReadToolDefinition } from '@earendil-works/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { readTextWindow } from './text-window.js';

/** Pi's own read tool on `bytes` (no file system): the reference the window must equal. */
async function piRead(bytes: Buffer, params: { offset?: number; limit?: number }) {
  const tool = createReadToolDefinition('/', {
    operations: {
      access: async () => undefined,
      detectImageMimeType: async () => undefined,
      readFile: async () => bytes,
    },
  });
  try {
    const request = { path: 'f.md', ...params };
    const result = await tool.execute('call', request, undefined, undefined, undefined as never);
    const [first] = result.content;
    return { text: first?.type === 'text' ? first.text : '', details: result.details };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

async function windowRead(bytes: Buffer, params: { offset?: number; limit?: number }) {
  try {
    const { text, details } = await readTextWindow(bytes, 'f.md', params);
    return { text, details };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const lines = (count: number, line: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => line(index)).join('\n');

const FILES: Record<string, Buffer> = {
  empty: Buffer.from(''),
  short: Buffer.from('one\ntwo\nthree\n'),
  'no final newline': Buffer.from('one\ntwo'),
  'blank lines at the end': Buffer.from('a\n\n\n'),
  'many short lines': Buffer.from(`${lines(5000, (index) => `line ${index + 1}`)}\n`),
  // Far more than Pi's 50 KB window, so the window is cut well before the selection ends.
  'long lines': Buffer.from(lines(3000, (index) => `${index}:${'x'.repeat(200)}`)),
  'huge first line': Buffer.from(`${'y'.repeat(300_000)}\nsecond\n${'z'.repeat(70_000)}\nlast`),
  // Multi-byte characters across Pi's 50 KB boundary.
  'multi-byte text': Buffer.from(lines(4000, (index) => `${index} äöü €𝄞 ${'é'.repeat(20)}`)),
};

const PARAMS: { offset?: number; limit?: number }[] = [
  {},
  { offset: 1 },
  { offset: 2 },
  { limit: 1 },
  { offset: 2, limit: 1 },
  { offset: 3, limit: 10 },
  { offset: 10, limit: 2500 },
  { offset: 1000 },
  { offset: 2999, limit: 5 },
  { offset: 4001 },
  { offset: 5001 },
  { offset: 6000 },
  { limit: 100_000 },
  { limit: 0 },
  { offset: 3, limit: 0 },
  { offset: 2.5 },
  { offset: 2.5, limit: 1.5 },
  { offset: 2, limit: -1 },
  { limit: -3000 },
];

describe('readTextWindow', () => {
  for (const [name, bytes] of Object.entries(FILES)) {
    it(`gives the text, truncation facts and errors of Pi's read tool for ${name}`, async () => {
      for (const params of PARAMS) {
        const pi = await piRead(bytes, params);
        // Where Pi's tool points at bash for a line past its limit, the window shows the line.
        if (pi.text?.includes('Use bash:')) continue;
        expect({ params, ...(await windowRead(bytes, params)) }).toEqual({ params, ...pi });
      }
    });
  }

  it('shows a line longer than the limit in pieces, each continued by byteOffset, never splitting a character', async () => {
    const line = `${'y'.repeat(60_000)}${'€'.repeat(20_000)}`;
    const bytes = Buffer.from(`${line}\nsecond\n`);
    const pieces: string[] = [];
    let params: { offset?: number; byteOffset?: number } = {};
    const notices: string[] = [];
    for (let call = 0; call < 10; call++) {
      const { text } = await readTextWindow(bytes, 'f.md', params);
      const [piece = '', notice = ''] = text.split('\n\n[');
      pieces.push(piece);
      notices.push(notice);
      const next = /Use offset=(\d+)(?: byteOffset=(\d+))?/.exec(notice);
      if (!next?.[2]) break;
      params = { offset: Number(next[1]), byteOffset: Number(next[2]) };
    }
    // The last piece is the rest of the line with the lines after it.
    expect(pieces.join('')).toBe(`${line}\nsecond\n`);
    expect(pieces.every((piece) => Buffer.byteLength(piece) <= 50 * 1024)).toBe(true);
    expect(notices[0]).toBe(
      'Line 1 of f.md is 117.2KB, longer than the 50.0KB limit: showing its bytes 1-51200. Use offset=1 byteOffset=51201 to continue.]',
    );
    expect(notices).toHaveLength(3);
    expect(notices[2]).toBe('');
    // A byteOffset whose rest of the line fits goes on with the next lines.
    const rest = await readTextWindow(bytes, 'f.md', { offset: 1, byteOffset: 119_998 });
    expect(rest.text).toBe('€\nsecond\n');
  });

  it('refuses a byteOffset beyond the end of its line', async () => {
    await expect(
      readTextWindow(Buffer.from('short\nline\n'), 'f.md', { offset: 1, byteOffset: 9 }),
    ).rejects.toThrow('byteOffset 9 is beyond the end of line 1 (5 bytes)');
  });

  it('counts the lines of the whole file, as Pi splits them', async () => {
    const bytes = Buffer.from('a\nb\nc\n');
    expect((await readTextWindow(bytes, 'f.md', { limit: 1 })).totalLines).toBe(4);
  });
});
