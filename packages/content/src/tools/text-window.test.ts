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
        expect({ params, ...(await windowRead(bytes, params)) }).toEqual({
          params,
          ...(await piRead(bytes, params)),
        });
      }
    });
  }

  it('counts the lines of the whole file, as Pi splits them', async () => {
    const bytes = Buffer.from('a\nb\nc\n');
    expect((await readTextWindow(bytes, 'f.md', { limit: 1 })).totalLines).toBe(4);
  });
});
