import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { openTools, textOf } from '../test/content-tools.js';
import { tempSpaces } from '../test/temp-space.js';

const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');
const space = tempSpaces();

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('read tool', () => {
  describe('text files', () => {
    it("returns Pi's text and records the whole version in the observer", async () => {
      const root = await space({ 'notes/a.md': 'line 1\nline 2\n' });
      const { call, observer } = await openTools(root);
      const result = await call('read', { path: 'notes/a.md' });
      expect(textOf(result)).toBe('line 1\nline 2\n');
      expect(result.details).toMatchObject({
        target: 'notes/a.md',
        version: sha('line 1\nline 2\n'),
        partial: false,
        outside: false,
      });
      expect(observer.get('notes/a.md')).toMatchObject({
        partial: false,
        text: 'line 1\nline 2\n',
      });
    });

    it('accepts a repa:document identity', async () => {
      const root = await space({ 'a.md': 'by identity' });
      const { call, store } = await openTools(root);
      const { identity } = await store.read('a.md');
      const result = await call('read', { path: identity });
      expect(textOf(result)).toBe('by identity');
      expect(result.details).toMatchObject({ target: 'a.md', identity });
    });

    it('records a fragment read as partial but with the whole file version (R64)', async () => {
      const text = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n');
      const root = await space({ 'long.md': text });
      const { call, observer } = await openTools(root);
      const result = await call('read', { path: 'long.md', offset: 3, limit: 2 });
      expect(textOf(result)).toContain('line 3\nline 4');
      expect(result.details).toMatchObject({ partial: true, version: sha(text) });
      expect(observer.get('long.md')).toMatchObject({ partial: true, version: sha(text) });
      expect(observer.get('long.md')?.text).toBeUndefined();
    });

    it('reads a one-line file longer than the limit through its own byteOffset, never pointing at bash', async () => {
      const line = 'word '.repeat(15_000);
      const root = await space({ 'minified.json': line });
      const { call } = await openTools(root);
      const first = textOf(await call('read', { path: 'minified.json' }));
      expect(first).not.toContain('bash');
      expect(first).toContain('Use offset=1 byteOffset=51201 to continue.');
      const rest = await call('read', { path: 'minified.json', offset: 1, byteOffset: 51_201 });
      expect(first.split('\n\n[')[0] + textOf(rest)).toBe(line);
      expect(rest.details).toMatchObject({ partial: true });
    });

    it("marks a read cut by Pi's truncation as partial", async () => {
      const text = Array.from({ length: 3000 }, (_, index) => `line ${index}`).join('\n');
      const root = await space({ 'huge.md': text });
      const { call } = await openTools(root);
      const result = await call('read', { path: 'huge.md' });
      expect(textOf(result)).toContain('Use offset=');
      expect(result.details).toMatchObject({ partial: true, truncation: { truncated: true } });
    });

    it("shows Pi's window of a file of several MiB with the whole file's version and line count", async () => {
      // Past the 1 MiB slices the version is hashed and the lines are scanned in.
      const line = (index: number) => `line ${index} ${'x'.repeat(90)}`;
      const text = `${Array.from({ length: 40_000 }, (_, index) => line(index)).join('\n')}\n`;
      const root = await space({ 'big.md': text });
      const { call, observer } = await openTools(root);
      const result = await call('read', { path: 'big.md', offset: 30_001, limit: 3 });
      expect(textOf(result)).toBe(
        `${line(30_000)}\n${line(30_001)}\n${line(30_002)}\n\n[9998 more lines in file. Use offset=30004 to continue.]`,
      );
      expect(result.details).toMatchObject({ partial: true, version: sha(text) });
      expect(observer.get('big.md')).toMatchObject({ partial: true, version: sha(text) });
    });
  });

  describe('images', () => {
    it("keeps Pi's image handling, reading the bytes through the store", async () => {
      const root = await space({ 'pic.png': PNG });
      const { call, observer } = await openTools(root);
      const result = await call('read', { path: 'pic.png' });
      expect(result.content.map((part) => part.type)).toEqual(['text', 'image']);
      expect(result.content[1]).toMatchObject({ mimeType: 'image/png' });
      expect(result.details).toMatchObject({ partial: false, version: sha(PNG) });
      expect(observer.get('pic.png')?.text).toBeUndefined();
    });
  });

  describe('outside materials', () => {
    it('reads a granted material and never tracks it', async () => {
      const root = await space();
      const outside = await space({ 'paper.txt': 'outside' });
      const appDirectory = await space({
        'repa-content-access.json': JSON.stringify({
          format: 'repa.content-access/1',
          materials: { paper: { path: join(outside, 'paper.txt') } },
        }),
      });
      const { call, observer } = await openTools(root, { appDirectory });
      const result = await call('read', { path: 'repa:material/paper' });
      expect(textOf(result)).toBe('outside');
      expect(result.details).toMatchObject({ outside: true, identity: 'repa:material/paper' });
      expect(observer.list()).toEqual([]);
    });
  });

  describe('errors', () => {
    it.each([
      ['missing.md', 'not_found'],
      ['.repa/identities.json', 'protected_path'],
      ['.REPA/identities.json', 'protected_path'],
      ['../escape.md', 'path_outside_space'],
      ['/etc/hostname', 'path_outside_space'],
    ])('refuses %j with %s, naming the code and the fix', async (path, code) => {
      const { call } = await openTools(await space({ 'a.md': 'a' }));
      const error = await repaErrorOf(call('read', { path }));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(new RegExp(`^${code}: `));
      expect(error.message).toContain('\nFix: ');
    });

    it('is cancelled before it starts', async () => {
      const { call } = await openTools(await space({ 'a.md': 'a' }));
      const error = await repaErrorOf(call('read', { path: 'a.md' }, AbortSignal.abort()));
      expect(error.code).toBe('cancelled');
    });
  });
});
