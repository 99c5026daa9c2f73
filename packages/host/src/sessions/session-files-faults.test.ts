import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failingFs as failing } from '@repa/durable-fs/testing';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { checkSessionFile, createSessionFile } from './session-files.js';

describe('createSessionFile on a failing file system', () => {
  for (const [method, code] of [
    ['write', 'ENOSPC'],
    ['sync', 'EIO'],
    ['link', 'EIO'],
  ] as const) {
    it(`a failed ${method} (${code}) is io_error and leaves no session or temp file`, async () => {
      const space = mkdtempSync(join(tmpdir(), 'repa-session-faults-'));
      const sessions = join(space, 'sessions');
      const { fs, failed } = failing(method, code);
      const error = await repaErrorOf(createSessionFile(space, sessions, { fs }));
      expect(failed).toEqual([method]);
      expect(error.code).toBe('io_error');
      expect(error.details).toMatchObject({ errno: code });
      expect(readdirSync(sessions)).toEqual([]);
    });
  }

  it('a session folder whose fsync is refused with EINVAL still gets the header', async () => {
    const space = mkdtempSync(join(tmpdir(), 'repa-session-faults-'));
    const { fs, failed } = failing('syncDir', 'EINVAL');
    const file = await createSessionFile(space, join(space, 'sessions'), { fs });
    expect(failed).toEqual(['syncDir']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ type: 'session', cwd: space });
    expect((await checkSessionFile(file)).entries).toBe(0);
  });
});
