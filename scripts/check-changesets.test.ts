import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { checkChangesets } from './check-changesets.mjs';

/** A git repository holding `files` in one commit, as a clone of it would. */
function repository(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'repa-changesets-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root });
  git('init', '-q');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'test');
  write(root, files);
  commit(root, 'first');
  return root;
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function commit(root: string, message: string): void {
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['commit', '-q', '-m', message], { cwd: root });
}

const manifest = (version: string, description = 'A.') =>
  `${JSON.stringify({ name: '@repa/a', version, description }, null, 2)}\n`;
const changelog = (...versions: string[]) =>
  `# @repa/a\n\n${versions.map((version) => `## ${version}\n\n- A change.\n`).join('\n')}`;
const changeset = '---\n"@repa/a": patch\n---\n\nFixed.\n';

/** A repository whose package `@repa/a` was released as 0.1.0 in its second commit. */
function released(): string {
  const root = repository({
    'packages/a/package.json': manifest('0.0.0'),
    'packages/a/src/index.ts': 'export const a = 1;\n',
    'packages/b/package.json': JSON.stringify({ name: '@repa/b', version: '0.0.0', private: true }),
    'packages/b/src/index.ts': 'export const b = 1;\n',
  });
  write(root, {
    'packages/a/package.json': manifest('0.1.0'),
    'packages/a/CHANGELOG.md': changelog('0.1.0'),
  });
  commit(root, 'version packages');
  return root;
}

// Each case runs git a dozen times: seconds on a busy 2-core machine.
describe('checkChangesets', { timeout: 60_000 }, () => {
  it('passes a released package with no change since, and a change to its tests alone', () => {
    const root = released();
    write(root, { 'packages/a/src/index.test.ts': 'it.todo("a");\n' });
    commit(root, 'a test');
    expect(checkChangesets(root)).toEqual([]);
  });

  it('fails when a source file changed since the release with no changeset, until one names it', () => {
    const root = released();
    write(root, { 'packages/a/src/index.ts': 'export const a = 2;\n' });
    commit(root, 'change a');
    expect(checkChangesets(root)).toEqual([
      expect.stringMatching(
        /^packages\/a: @repa\/a changed since its release 0\.1\.0 \([0-9a-f]{7}: src\/index\.ts\) and no \.changeset\/\*\.md names it$/,
      ),
    ]);
    write(root, { '.changeset/fix-a.md': changeset });
    expect(checkChangesets(root)).toEqual([]);
  });

  it('fails when package.json changed other than its version, uncommitted too', () => {
    const root = released();
    write(root, { 'packages/a/package.json': manifest('0.1.0', 'Another.') });
    expect(checkChangesets(root)).toEqual([
      expect.stringContaining(': package.json) and no .changeset'),
    ]);
  });

  it('fails on a version bumped by hand (its CHANGELOG has no entry for it)', () => {
    const root = released();
    write(root, { 'packages/a/package.json': manifest('0.1.1') });
    commit(root, 'bump a');
    expect(checkChangesets(root)).toEqual([
      'packages/a/package.json: @repa/a is at 0.1.1 but the newest entry of its CHANGELOG.md is 0.1.0; versions change only by `npx changeset version`',
    ]);
  });

  it('takes a later release (version and CHANGELOG moved together) as the new base', () => {
    const root = released();
    write(root, {
      'packages/a/src/index.ts': 'export const a = 2;\n',
      '.changeset/x.md': changeset,
    });
    commit(root, 'change a');
    write(root, {
      'packages/a/package.json': manifest('0.1.1'),
      'packages/a/CHANGELOG.md': changelog('0.1.1', '0.1.0'),
    });
    execFileSync('git', ['rm', '-q', '.changeset/x.md'], { cwd: root });
    commit(root, 'version packages');
    expect(checkChangesets(root)).toEqual([]);
  });
});
