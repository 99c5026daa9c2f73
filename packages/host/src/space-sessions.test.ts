import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
    expect(await readSessionHistory(space, session.sessionId)).toEqual([]);
    expect(readFileSync(file)).toEqual(before);
  });
});
