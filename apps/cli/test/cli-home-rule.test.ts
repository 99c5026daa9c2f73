import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { type CliResult, createSandbox, repa, writeFiles } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { openTerminal, type Terminal } from './terminal-harness.js';

// The home rule (design R17): `repa` in the sandbox's $HOME, below it, and in a folder holding the
// agent dir, on the built CLI and daemon.
const sandbox = createSandbox();
const terminals: Terminal[] = [];

afterAll(async () => {
  for (const opened of terminals) opened.close();
  await repa(sandbox, ['daemon', 'stop']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

/** Every path under `folder`, relative to it (what a refused command must leave as it was). */
function tree(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
}

/** The spaces the daemon lists, with their trust. */
async function listedSpaces(): Promise<{ root: string; trusted: boolean }[]> {
  const client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
  try {
    await client.connect();
    return (await client.request('space.list', {})).spaces.map(({ root, trusted }) => ({
      root,
      trusted,
    }));
  } finally {
    await client.close();
  }
}

function trustedSpaces(): string {
  const file = join(sandbox.appDir, 'trusted-spaces.json');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** Expects `result` to be the home rule's refusal of `folder`, with a fix naming --space. */
function expectRefused(result: CliResult, folder: string): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toContain(`repa: ${folder} `);
  expect(result.stderr).toContain('(space_unsafe)');
  expect(result.stderr).toMatch(/^Fix: .*--space /m);
  expect(result.stdout).not.toContain('[repa] session');
}

describe('repa in the home folder', () => {
  it('run and chat without a terminal make no space of $HOME and write nothing there', async () => {
    writeFiles(sandbox.home, { 'letters/aunt.md': 'Dear aunt,\n' });
    const before = tree(sandbox.home);
    for (const args of [['run', 'Hello there.'], ['chat']]) {
      const result = await repa(sandbox, args, { cwd: sandbox.home, input: 'Hello there.\n' });
      expectRefused(result, sandbox.home);
      expect(result.stderr).toContain('is your home folder');
      expect(result.stderr).toContain(`--space ${sandbox.home}`);
    }
    expect(tree(sandbox.home)).toEqual(before);
    expect(await listedSpaces()).toEqual([]);
    expect(trustedSpaces()).not.toContain(sandbox.home);
  });

  it('run on a terminal asks nothing: it is refused before any question', async () => {
    const before = tree(sandbox.home);
    const screen = openTerminal(sandbox, ['run', 'Hello there.'], { cwd: sandbox.home });
    terminals.push(screen);
    const shown = await screen.waitFor(/\[exit \d+\]|\[Y\/n\]/);
    expect(shown).not.toContain('[Y/n]');
    expect(shown).toContain('(space_unsafe)');
    expect(shown).toMatch(/Fix: [\s\S]*--space /);
    expect(shown).toContain('[exit 1]');
    expect(tree(sandbox.home)).toEqual(before);
    expect(await listedSpaces()).toEqual([]);
  });

  it('a folder holding the agent dir is refused alike, and gains no .repa', async () => {
    const before = tree(sandbox.root);
    const result = await repa(sandbox, ['run', 'Hello there.'], { cwd: sandbox.root });
    expectRefused(result, sandbox.root);
    expect(result.stderr).toContain(`holds Pi's configuration (${sandbox.agentDir}`);
    expect(existsSync(join(sandbox.root, '.repa'))).toBe(false);
    expect(tree(sandbox.root).filter((path) => !path.startsWith('app'))).toEqual(
      before.filter((path) => !path.startsWith('app')),
    );
    expect(await listedSpaces()).toEqual([]);
  });

  it('with a .repa an older Repa left in $HOME: $HOME and a folder below it without its own are refused, nothing written', async () => {
    mkdirSync(join(sandbox.home, '.repa', 'sessions'), { recursive: true });
    const notes = join(sandbox.home, 'letters');
    const before = tree(sandbox.home);
    expectRefused(
      await repa(sandbox, ['run', 'Hello there.'], { cwd: sandbox.home }),
      sandbox.home,
    );
    const below = await repa(sandbox, ['run', 'Hello there.'], { cwd: notes });
    expectRefused(below, notes);
    expect(below.stderr).toContain(`--space ${notes}`);
    expect(tree(sandbox.home)).toEqual(before);
    expect(await listedSpaces()).toEqual([]);
    expect(trustedSpaces()).not.toContain(sandbox.home);
  });

  it('listings that answer without a space still answer in $HOME and below it, at the application level', async () => {
    const notes = join(sandbox.home, 'letters');
    const before = tree(sandbox.home);
    for (const cwd of [sandbox.home, notes]) {
      for (const args of [
        ['settings', 'get'],
        ['packages', 'list'],
        ['runs', 'list', '--all'],
      ]) {
        const result = await repa(sandbox, args, { cwd });
        expect([cwd, ...args, result.code, result.stderr]).toEqual([cwd, ...args, 0, '']);
      }
    }
    expect(tree(sandbox.home)).toEqual(before);
    expect(await listedSpaces()).toEqual([]);
  });

  it('named with --space, $HOME is a space (listed, not trusted by itself); a folder below still does not resolve to it', async () => {
    const named = await repa(sandbox, ['run', '--space', sandbox.home, 'Hello there.']);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toContain(`[repa] space ${sandbox.home}`);
    expect(readdirSync(join(sandbox.home, '.repa', 'sessions'))).toHaveLength(1);
    expect(await listedSpaces()).toEqual([{ root: sandbox.home, trusted: false }]);
    const again = await repa(sandbox, ['run', 'Hello again.'], { cwd: sandbox.home });
    expect(again.code, again.stderr).toBe(0);
    const notes = join(sandbox.home, 'letters');
    expectRefused(await repa(sandbox, ['run', 'Hello there.'], { cwd: notes }), notes);
    expect(existsSync(join(notes, '.repa'))).toBe(false);
  });
});
