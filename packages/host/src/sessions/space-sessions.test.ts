import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessionFile, SESSION_FILE_LIMIT } from './session-files.js';
import {
  createSpaceSession,
  findSessionFile,
  listSpaceSessions,
  readSessionHistory,
  sessionDirectoryOf,
} from './space-sessions.js';

async function spaceWithSession(title: string) {
  const space = mkdtempSync(join(tmpdir(), 'repa-space-sessions-'));
  const session = await createSpaceSession(space, title);
  const file = await findSessionFile(space, session.sessionId);
  return { space, session, file };
}

function quarantineOf(space: string): string[] {
  return readdirSync(join(sessionDirectoryOf(space), 'quarantine'));
}

describe('createSpaceSession', () => {
  it('gives the .repa/ it makes a .gitignore of *, so the transcripts are never committed', async () => {
    const { space } = await spaceWithSession('Ignored');
    expect(readFileSync(join(space, '.repa', '.gitignore'), 'utf8')).toBe('*\n');
  });
});

describe('listSpaceSessions', () => {
  it('lists a session whose header is garbled as damaged, under the id of its file name', async () => {
    const { space, session, file } = await spaceWithSession('Garbled');
    const sound = await createSpaceSession(space, 'Sound');
    writeFileSync(file, `#garbled#${readFileSync(file, 'utf8').slice(9)}`);
    const before = readFileSync(file);
    const listed = await listSpaceSessions(space);
    expect(listed).toHaveLength(2);
    expect(listed).toContainEqual(expect.objectContaining({ sessionId: sound.sessionId }));
    expect(listed.find((info) => info.sessionId === sound.sessionId)?.damaged).toBeUndefined();
    const damaged = listed.find((info) => info.sessionId === session.sessionId);
    expect(damaged?.damaged).toMatchObject({ code: 'session_damaged' });
    expect(damaged?.damaged?.message).toMatch(/header/);
    expect(damaged?.createdAt).toBe(session.createdAt);
    expect(readFileSync(file)).toEqual(before);
    const [copy, ...others] = quarantineOf(space);
    expect(others).toEqual([]);
    expect(readFileSync(join(sessionDirectoryOf(space), 'quarantine', copy ?? ''))).toEqual(before);
  });
});

describe('session files past the size bound', () => {
  it('lists a 256 MiB + 1 session file as data_too_large and refuses to read or continue it, copying nothing', async () => {
    const { space, session, file } = await spaceWithSession('Huge');
    truncateSync(file, SESSION_FILE_LIMIT + 1); // sparse: the header, then NULs
    const listed = await listSpaceSessions(space);
    expect(listed.find((info) => info.sessionId === session.sessionId)?.damaged).toMatchObject({
      code: 'data_too_large',
      details: { path: file, size: SESSION_FILE_LIMIT + 1, limit: SESSION_FILE_LIMIT },
    });
    await expect(readSessionHistory(space, session.sessionId)).rejects.toMatchObject({
      code: 'data_too_large',
    });
    await expect(openSessionFile(file)).rejects.toMatchObject({ code: 'data_too_large' });
    expect(readdirSync(sessionDirectoryOf(space))).not.toContain('quarantine');
  });
});

describe('readSessionHistory', () => {
  it('answers session_damaged (not not_found) for a session whose header is garbled', async () => {
    const { space, session, file } = await spaceWithSession('Garbled');
    writeFileSync(file, `#garbled#${readFileSync(file, 'utf8').slice(9)}`);
    await expect(readSessionHistory(space, session.sessionId)).rejects.toMatchObject({
      code: 'session_damaged',
    });
    await expect(findSessionFile(space, session.sessionId)).rejects.toMatchObject({
      code: 'session_damaged',
    });
  });

  it('reads a session with a torn last line without writing its file', async () => {
    const { space, session, file } = await spaceWithSession('Torn');
    appendFileSync(file, '{"type":"message","id":"torn","parentId":null,"mess');
    const before = readFileSync(file);
    expect(await readSessionHistory(space, session.sessionId)).toEqual({ items: [] });
    expect(readFileSync(file)).toEqual(before);
  });
});

/** Settles `promise` or says it is still waiting after 5 s (a hang fails instead of hanging). */
function within5s<T>(promise: Promise<T>): Promise<T | 'still waiting after 5 s'> {
  const timeout = new Promise<'still waiting after 5 s'>((resolve) => {
    setTimeout(() => resolve('still waiting after 5 s'), 5_000).unref();
  });
  return Promise.race([promise, timeout]);
}

describe('untrusted session folders', () => {
  const fifoName = '2026-01-01T00-00-00-000Z_0196a3c4-fifo.jsonl';

  it('lists a FIFO named like a session as damaged without waiting for a writer', async () => {
    const { space, session } = await spaceWithSession('Sound');
    execFileSync('mkfifo', [join(sessionDirectoryOf(space), fifoName)]);
    const listed = await within5s(listSpaceSessions(space));
    expect(listed).not.toBe('still waiting after 5 s');
    const sessions = listed as Awaited<ReturnType<typeof listSpaceSessions>>;
    expect(sessions.map((info) => info.sessionId).sort()).toEqual(
      ['0196a3c4-fifo', session.sessionId].sort(),
    );
    const fifo = sessions.find((info) => info.sessionId === '0196a3c4-fifo');
    expect(fifo?.damaged).toMatchObject({ code: 'session_damaged' });
    const found = await within5s(findSessionFile(space, '0196a3c4-fifo').catch((e) => e));
    expect(found).toMatchObject({ code: 'session_damaged' });
  });

  it('never reads a session file through a symlink', async () => {
    const { space, file } = await spaceWithSession('Elsewhere');
    const other = mkdtempSync(join(tmpdir(), 'repa-space-sessions-other-'));
    const target = join(other, 'outside.jsonl');
    writeFileSync(target, readFileSync(file));
    const link = join(sessionDirectoryOf(space), '2026-01-01T00-00-00-000Z_0196a3c4-link.jsonl');
    symlinkSync(target, link);
    const listed = await listSpaceSessions(space);
    const linked = listed.find((info) => info.sessionId === '0196a3c4-link');
    expect(linked?.damaged).toMatchObject({ code: 'session_damaged' });
  });

  it('refuses to list or create sessions through a .repa that is a symlink (space_unsafe)', async () => {
    const space = mkdtempSync(join(tmpdir(), 'repa-space-sessions-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'repa-space-sessions-elsewhere-'));
    mkdirSync(join(elsewhere, 'sessions'));
    symlinkSync(elsewhere, join(space, '.repa'));
    await expect(listSpaceSessions(space)).rejects.toMatchObject({ code: 'space_unsafe' });
    await expect(createSpaceSession(space, 'x')).rejects.toMatchObject({ code: 'space_unsafe' });
    expect(readdirSync(join(elsewhere, 'sessions'))).toEqual([]);
  });
});
