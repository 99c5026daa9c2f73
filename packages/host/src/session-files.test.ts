import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { checkSessionFile, createSessionFile, openSessionFile } from './session-files.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'repa-session-files-'));
}

function sessionWithEntries(): string {
  const dir = tempDir();
  const header = { type: 'session', version: 3, id: 'sess-1', timestamp: 't', cwd: dir };
  const lines = [
    header,
    {
      type: 'model_change',
      id: 'a',
      parentId: null,
      timestamp: 't',
      provider: 'faux',
      modelId: 'faux-1',
    },
    { type: 'thinking_level_change', id: 'b', parentId: 'a', timestamp: 't', thinkingLevel: 'off' },
  ];
  const file = join(dir, 's.jsonl');
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return file;
}

function expectDamaged(file: string, pattern: RegExp): void {
  const before = readFileSync(file);
  try {
    checkSessionFile(file);
    expect.unreachable('checkSessionFile accepted a damaged file');
  } catch (error) {
    expect(RepaError.isInstance(error) && error.code).toBe('session_damaged');
    expect((error as Error).message).toMatch(pattern);
  }
  expect(readFileSync(file)).toEqual(before);
}

describe('checkSessionFile', () => {
  it('accepts a sound file and leaves it byte-identical', () => {
    const file = sessionWithEntries();
    const before = readFileSync(file);
    expect(checkSessionFile(file)).toEqual({
      sessionId: 'sess-1',
      entries: 2,
      repairedTornLine: false,
    });
    expect(readFileSync(file)).toEqual(before);
  });

  it('appends a newline after a torn last line, keeping the original bytes as a prefix', () => {
    const file = sessionWithEntries();
    appendFileSync(file, '{"type":"message","id":"c","parentId":"b","mess');
    const before = readFileSync(file);
    expect(checkSessionFile(file).repairedTornLine).toBe(true);
    const after = readFileSync(file);
    expect(after.subarray(0, before.length)).toEqual(before);
    expect(after.toString('utf8')).toBe(`${before.toString('utf8')}\n`);
    // Pi then opens it and appends after the repaired line; the chain stays sound.
    const manager = openSessionFile(file);
    expect(manager.getLeafId()).toBe('b');
  });

  it.each([
    ['a header that is not JSON', (text: string) => `{"type":"sess${text.slice(20)}`, /header/],
    ['a header without a version', (text: string) => text.replace('"version":3,', ''), /version/],
    [
      'a header of an old version',
      (text: string) => text.replace('"version":3', '"version":2'),
      /version/,
    ],
    ['a missing header', (text: string) => text.split('\n').slice(1).join('\n'), /header/],
    [
      'a broken parent chain',
      (text: string) => text.replace('"parentId":"a"', '"parentId":"zz"'),
      /missing parent zz/,
    ],
    ['an entry without an id', (text: string) => text.replace('"id":"b",', ''), /entry 2/],
  ])('reports %s as session_damaged and leaves the file untouched', (_name, damage, pattern) => {
    const file = sessionWithEntries();
    writeFileSync(file, damage(readFileSync(file, 'utf8')));
    expectDamaged(file, pattern);
  });
});

describe('createSessionFile', () => {
  it('makes the new session recoverable before its first message', async () => {
    const dir = tempDir();
    const file = await createSessionFile(dir, join(dir, 'sessions'));
    const header = JSON.parse(readFileSync(file, 'utf8'));
    expect(header).toMatchObject({ type: 'session', version: 3, cwd: dir });
    const reopened = SessionManager.open(file);
    expect(reopened.getSessionId()).toBe(header.id);
    // Pi appends to the existing file instead of creating another one.
    reopened.appendMessage({ role: 'user', content: 'hi', timestamp: 1 });
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(checkSessionFile(file).entries).toBe(1);
  });
});
