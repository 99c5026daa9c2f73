import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive, readPidFile } from './daemon-pid.js';

const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'repa-pid-')), 'daemon.pid');
  writeFileSync(path, text);
  return path;
};

describe('readPidFile', () => {
  it('reads the pid of a pid file with a newline', async () => {
    expect(await readPidFile(file('4242\n'))).toBe(4242);
  });

  it('is undefined for a missing file, text, zero or a negative number', async () => {
    expect(await readPidFile(join(tmpdir(), 'repa-no-such-dir', 'daemon.pid'))).toBeUndefined();
    for (const text of ['', 'pid', '0', '-5'])
      expect(await readPidFile(file(text))).toBeUndefined();
  });
});

describe('isProcessAlive', () => {
  it('is true for this process and false for a pid no process has', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 22 + 1)).toBe(false);
  });
});
