import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./run-all.mjs', import.meta.url));
const node = JSON.stringify(process.execPath);

function runAll(...commands: string[]) {
  // A run-all that runs the commands only in order never ends the --beside test: stop it.
  return spawnSync(process.execPath, [script, ...commands], { encoding: 'utf8', timeout: 20_000 });
}

describe('run-all', () => {
  it('runs the later commands after a failing one and exits non-zero naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'repa-run-all-'));
    try {
      const marker = join(dir, 'second-ran');
      const result = runAll(
        `${node} -e "process.exit(3)"`,
        `${node} -e "require('node:fs').writeFileSync(process.argv[1], '')" ${JSON.stringify(marker)}`,
      );
      expect(existsSync(marker)).toBe(true);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('process.exit(3)');
      expect(result.stderr).toContain('exit 3');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs a --beside command alongside the others, prints its output in one block, and fails on it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'repa-run-all-'));
    try {
      // The beside command waits for a file the second command writes: it ends only if both ran
      // at once (in order, the first would wait forever and the test would time out).
      const flag = JSON.stringify(join(dir, 'flag'));
      const waits = `${node} -e "const fs=require('node:fs');const t=setInterval(()=>{if(fs.existsSync(process.argv[1])){clearInterval(t);console.log('saw the flag');process.exit(4)}},20)" ${flag}`;
      const writes = `${node} -e "require('node:fs').writeFileSync(process.argv[1], '')" ${flag}`;
      const result = runAll('--beside', waits, writes);
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('saw the flag');
      expect(result.stdout).toMatch(
        /── .* \(ran beside the others\) ──\nsaw the flag\n── .*: FAILED ──/,
      );
      expect(result.stderr).toContain('exit 4');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 0 when every command succeeds', () => {
    const result = runAll('--beside', `${node} -e "0"`, `${node} -e "0"`, `${node} -e "0"`);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/: passed ──/);
  });
});
