import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./run-all.mjs', import.meta.url));
const node = JSON.stringify(process.execPath);

function runAll(...commands: string[]) {
  return spawnSync(process.execPath, [script, ...commands], { encoding: 'utf8' });
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

  it('exits 0 when every command succeeds', () => {
    const result = runAll(`${node} -e "0"`, `${node} -e "0"`);
    expect(result.status).toBe(0);
  });
});
