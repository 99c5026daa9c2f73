import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repaErrorOf } from '@repa/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSandbox } from './bash-sandbox.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding an executable `bwrap` that runs `script` (a real process, not bubblewrap). */
function fakeBwrap(script: string): { bin: string; bwrap: string } {
  const bin = mkdtempSync(join(tmpdir(), 'repa-fake-bwrap-'));
  dirs.push(bin);
  const bwrap = join(bin, 'bwrap');
  writeFileSync(bwrap, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return { bin, bwrap };
}

/** Whether `pid` is a live process (a zombie counts as gone). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('checkSandbox', () => {
  it('is sandbox_unavailable without a bwrap on the PATH, naming none', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'repa-empty-bin-'));
    dirs.push(empty);
    const error = await repaErrorOf(checkSandbox({ path: empty }));
    expect(error.code).toBe('sandbox_unavailable');
    expect(error.details?.bwrap).toBeUndefined();
  });

  it('names the bwrap that could not start a sandbox, with what it said', async () => {
    const { bin, bwrap } = fakeBwrap(
      'echo "bwrap: No permissions to create new namespace" >&2\nexit 1',
    );
    const error = await repaErrorOf(checkSandbox({ path: bin }));
    expect(error.code).toBe('sandbox_unavailable');
    expect(error.details?.bwrap).toBe(bwrap);
    expect(error.message).toContain('No permissions to create new namespace');
  });

  it('kills a probe that does not end in time, and what it started, and says so', async () => {
    // A wrapper that does not exec: its child keeps the stderr pipe open (and would outlive it).
    const { bin, bwrap } = fakeBwrap(`sleep 120 &\necho $! > "$(dirname "$0")/child.pid"\nwait`);
    const error = await repaErrorOf(checkSandbox({ path: bin, timeoutMs: 300 }));
    expect(error.code).toBe('sandbox_unavailable');
    expect(error.details?.bwrap).toBe(bwrap);
    expect(error.message).toBe(`bubblewrap (${bwrap}) did not start a sandbox within 0.3 s here.`);
    const child = Number(readFileSync(join(bin, 'child.pid'), 'utf8'));
    // Killed with its group: gone once reaped (polls; the test's time limit is the bound).
    while (isRunning(child)) await sleep(20);
  });
});
