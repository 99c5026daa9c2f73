import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
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

async function expectDamaged(file: string, pattern: RegExp): Promise<void> {
  const before = readFileSync(file);
  try {
    await checkSessionFile(file);
    expect.unreachable('checkSessionFile accepted a damaged file');
  } catch (error) {
    expect(RepaError.isInstance(error) && error.code).toBe('session_damaged');
    expect((error as Error).message).toMatch(pattern);
  }
  expect(readFileSync(file)).toEqual(before);
}

function quarantined(file: string): Buffer[] {
  const dir = join(dirname(file), 'quarantine');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith(`${basename(file)}.`))
    .map((name) => readFileSync(join(dir, name)));
}

describe('checkSessionFile', () => {
  it('accepts a sound file and leaves it byte-identical', async () => {
    const file = sessionWithEntries();
    const before = readFileSync(file);
    expect(await checkSessionFile(file)).toEqual({
      sessionId: 'sess-1',
      entries: 2,
      tornLastLine: false,
    });
    expect(readFileSync(file)).toEqual(before);
  });

  it('reports a torn last line without writing the file', async () => {
    const file = sessionWithEntries();
    appendFileSync(file, '{"type":"message","id":"c","parentId":"b","mess');
    const before = readFileSync(file);
    expect((await checkSessionFile(file)).tornLastLine).toBe(true);
    expect(readFileSync(file)).toEqual(before);
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
    [
      'NULs over the last entry',
      (text: string) => {
        const last = text.lastIndexOf('\n', text.length - 2) + 1;
        return text.slice(0, last) + '\0'.repeat(text.length - last);
      },
      /NUL/,
    ],
    [
      'NULs over the last entry, newline kept',
      (text: string) => {
        const last = text.lastIndexOf('\n', text.length - 2) + 1;
        return `${text.slice(0, last)}${'\0'.repeat(text.length - last - 1)}\n`;
      },
      /NUL/,
    ],
  ])(
    'reports %s as session_damaged and leaves the file untouched',
    async (_name, damage, pattern) => {
      const file = sessionWithEntries();
      writeFileSync(file, damage(readFileSync(file, 'utf8')));
      await expectDamaged(file, pattern);
    },
  );

  it('names the line NULs damaged, the entries after it that lose their parent chain, where the history ends and how to keep it', async () => {
    const file = sessionWithEntries();
    const entry = (id: string, parentId: string) =>
      `${JSON.stringify({ type: 'label', id, parentId, timestamp: 't', targetId: 'a' })}\n`;
    appendFileSync(file, entry('c', 'b') + entry('d', 'c'));
    // Line 3 (entry b, the child of a) reads back as zeros; c and d chain through it.
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = '\0'.repeat(lines[2]?.length ?? 0);
    writeFileSync(file, lines.join('\n'));
    const error = await checkSessionFile(file).then(
      () => expect.unreachable('a damaged file was accepted'),
      (caught: unknown) => caught as RepaError,
    );
    expect(error.code).toBe('session_damaged');
    expect(error.message).toContain('line 3 holds NUL bytes');
    expect(error.message).toContain('2 of the 2 entries after it lose their parent chain');
    expect(error.message).toContain('the readable history ends at entry a (line 2)');
    expect(error.details).toMatchObject({
      line: 3,
      entriesAfter: 2,
      entriesCutOff: 2,
      lastIntactEntry: 'a',
      lastIntactLine: 2,
    });
    expect(error.fix).toContain('head -n 2');
    expect(error.fix).toContain('quarantine');
  });

  it('keeps a byte-identical quarantine copy of a damaged file, once per damaged state', async () => {
    const file = sessionWithEntries();
    writeFileSync(file, `#garbled${readFileSync(file, 'utf8').slice(8)}`);
    const before = readFileSync(file);
    await expectDamaged(file, /header/);
    await expectDamaged(file, /header/);
    expect(quarantined(file)).toEqual([before]);
    expect(readFileSync(file)).toEqual(before);
  });

  it('answers an unchanged file (same dev, inode, size and mtime) from its last check', async () => {
    const file = sessionWithEntries();
    const stamp = new Date('2026-01-02T03:04:05.000Z');
    utimesSync(file, stamp, stamp);
    expect((await checkSessionFile(file)).entries).toBe(2);
    // Same size, same inode, same mtime: the check is not repeated.
    const text = readFileSync(file, 'utf8');
    const fd = openSync(file, 'r+');
    writeSync(fd, '#'.repeat(10), 0);
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).not.toBe(text);
    utimesSync(file, stamp, stamp);
    expect((await checkSessionFile(file)).entries).toBe(2);
    // A new mtime is a new state: checked again.
    utimesSync(file, stamp, new Date('2026-01-02T03:04:06.000Z'));
    await expectDamaged(file, /header/);
  });
});

describe('openSessionFile', () => {
  it('repairs a torn last line for a continued session, keeping the original bytes as a prefix', async () => {
    const file = sessionWithEntries();
    appendFileSync(file, '{"type":"message","id":"c","parentId":"b","mess');
    const before = readFileSync(file);
    const manager = await openSessionFile(file);
    const after = readFileSync(file);
    expect(after.toString('utf8')).toBe(`${before.toString('utf8')}\n`);
    // Pi then appends after the repaired line; the chain stays sound.
    expect(manager.getLeafId()).toBe('b');
    manager.appendMessage({ role: 'user', content: 'hi', timestamp: 1 });
    const continued = readFileSync(file);
    expect(continued.subarray(0, before.length)).toEqual(before);
    expect((await checkSessionFile(file)).entries).toBe(3);
  });

  it('refuses a damaged file without opening or writing it', async () => {
    const file = sessionWithEntries();
    writeFileSync(file, readFileSync(file, 'utf8').replace('"parentId":"a"', '"parentId":"zz"'));
    const before = readFileSync(file);
    await expect(openSessionFile(file)).rejects.toMatchObject({ code: 'session_damaged' });
    expect(readFileSync(file)).toEqual(before);
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
    expect((await checkSessionFile(file)).entries).toBe(1);
  });
});
