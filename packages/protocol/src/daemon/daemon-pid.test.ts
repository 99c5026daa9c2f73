import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

  it.runIf(process.platform === 'linux')(
    'is false for a zombie: a process that exited and waits to be reaped',
    async () => {
      // sh starts a child that exits shortly, then becomes `sleep`, which never reaps it.
      const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        const pid = Number(
          await new Promise<string>((resolve) => {
            parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8')));
          }),
        );
        const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
        while (state() !== 'Z') await new Promise((resolve) => setTimeout(resolve, 10));
        expect(isProcessAlive(pid)).toBe(false);
        expect(isProcessAlive(parent.pid ?? 0)).toBe(true);
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );
});
