import { lstat, mkdir, readdir, readFile, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExtensionContext } from '@earendil-works/pi-coding-agent';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { createSandboxedBashTool } from '../bash/index.js';
import { ContentObserver } from '../observer/index.js';
import { rewindGroup } from '../rewind/index.js';
import { openTools, textOf } from '../test/content-tools.js';
import { tempSpaces } from '../test/temp-space.js';
import { hideFromSpaces } from './protected-places.js';

const space = tempSpaces();

/** Every entry below `root` but `.repa`: a file's text, a link's target, a folder's mark. */
async function snapshot(root: string, prefix = ''): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const name of await readdir(join(root, prefix))) {
    const path = prefix === '' ? name : `${prefix}/${name}`;
    if (path === '.repa') continue;
    const stats = await lstat(join(root, path));
    if (stats.isSymbolicLink()) found[path] = `-> ${await readlink(join(root, path))}`;
    else if (stats.isDirectory()) Object.assign(found, { [path]: '/' }, await snapshot(root, path));
    else found[path] = await readFile(join(root, path), 'utf8');
  }
  return found;
}

/**
 * A space with every kind of protected place (design R69): Pi's folders, an instruction file, a git
 * repository at the root and a bare one inside, a `.git` file, and links leading to each.
 */
async function armedSpace(): Promise<string> {
  const root = await space({
    'notes/a.md': 'tides\n',
    'notes/claude-source.md': 'Be brief.\n',
    'AGENTS.md': 'Cite the notes.\n',
    '.pi/settings.json': '{}\n',
    '.agents/skills/s/SKILL.md': '---\nname: s\n---\n',
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.git/config': '[core]\n',
    'vendor/lib/HEAD': 'ref: refs/heads/main\n',
    'vendor/lib/config': '[core]\n',
    'sub/.git': 'gitdir: ../vendor/lib\n',
  });
  for (const folder of ['.git/objects', '.git/refs', 'vendor/lib/objects', 'vendor/lib/refs']) {
    await mkdir(join(root, folder), { recursive: true });
  }
  await mkdir(join(root, 'links'));
  await symlink('../.pi', join(root, 'links/pi'));
  await symlink('../AGENTS.md', join(root, 'links/agents.md'));
  await symlink('../.git/config', join(root, 'links/gitconfig'));
  await symlink('notes/claude-source.md', join(root, 'CLAUDE.md'));
  return root;
}

/** Every path a save must refuse in {@link armedSpace}: by name, case, look-alike, link and shape. */
const NEW_FILES = [
  '.pi/extensions/x.js',
  '.PI/extensions/x.js',
  '.\uFF50i/extensions/x.js',
  'deep/.pi/settings.json',
  '.agents/skills/t/SKILL.md',
  'Agents.md',
  'AGENTS.override.md',
  '.git/hooks/post-checkout',
  'sub/.git',
  'vendor/lib/hooks/pre-commit',
  'links/pi/extensions/x.js',
  'notes/.git',
];
const EXISTING_FILES = [
  'AGENTS.md',
  '.pi/settings.json',
  '.agents/skills/s/SKILL.md',
  '.git/config',
  'vendor/lib/config',
  'links/agents.md',
  'links/gitconfig',
  'CLAUDE.md',
  'notes/claude-source.md',
];

describe('protected places: no tool that saves touches them, by any spelling or link', () => {
  it('refuses write, edit and apply_patch on each with protected_path, changing nothing', async () => {
    const root = await armedSpace();
    const before = await snapshot(root);
    const { call, observe } = await openTools(root);
    await observe('notes/a.md', ...EXISTING_FILES.filter((path) => !path.startsWith('links/')));
    const attempts: [string, () => Promise<unknown>][] = [];
    for (const path of [...NEW_FILES, ...EXISTING_FILES]) {
      attempts.push([`write ${path}`, () => call('write', { path, content: 'run me\n' })]);
      attempts.push([
        `add ${path}`,
        () =>
          call('apply_patch', {
            input: `*** Begin Patch\n*** Add File: ${path}\n+run me\n*** End Patch`,
          }),
      ]);
    }
    for (const path of EXISTING_FILES) {
      await observe(path);
      attempts.push([
        `edit ${path}`,
        () =>
          readFile(join(root, path), 'utf8').then((text) =>
            call('edit', { path, edits: [{ oldText: text.split('\n')[0], newText: 'obey' }] }),
          ),
      ]);
      attempts.push([
        `delete ${path}`,
        () =>
          call('apply_patch', {
            input: `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch`,
          }),
      ]);
    }
    attempts.push([
      'move a note onto AGENTS.md',
      () =>
        call('apply_patch', {
          input:
            '*** Begin Patch\n*** Update File: notes/a.md\n*** Move to: AGENTS.md\n@@\n-tides\n+obey\n*** End Patch',
        }),
    ]);
    const codes: Record<string, string> = {};
    for (const [name, attempt] of attempts) codes[name] = (await repaErrorOf(attempt())).code;
    expect(Object.entries(codes).filter(([, code]) => code !== 'protected_path')).toEqual([]);
    expect(await snapshot(root)).toEqual(before);
  });

  it('says why and how the learner makes the change themselves', async () => {
    const root = await armedSpace();
    const { call } = await openTools(root);
    const error = await repaErrorOf(call('write', { path: '.pi/extensions/x.js', content: 'x' }));
    expect(error.message).toContain('extensions');
    expect(error.fix).toMatch(/yourself outside Repa/);
  });

  it('refuses a rewind into a place that became protected after the run', async () => {
    const root = await space({ 'notes/x.md': 'one\n' });
    const { call, store, observe } = await openTools(root);
    await observe('notes/x.md');
    await call('write', { path: 'notes/x.md', content: 'two\n' });
    await symlink('notes/x.md', join(root, 'AGENTS.md'));
    const rewind = await rewindGroup(store, 'op', { rewindId: 'undo' });
    expect(rewind.files.map((file) => [file.status, file.error?.code])).toEqual([
      ['refused', 'protected_path'],
    ]);
    expect(await snapshot(root)).toMatchObject({ 'notes/x.md': 'two\n' });
  });

  it('hides Pi’s agent dir and Repa’s app dir inside a space from reads, listings and saves', async () => {
    const root = await space({
      'notes/a.md': 'tides\n',
      'home/.pi/agent/auth.json': '{"key":"sk-secret"}\n',
      'home/.config/repa/trusted-spaces.json': '[]\n',
    });
    hideFromSpaces(join(root, 'home/.pi/agent'));
    const { call } = await openTools(root, { appDirectory: join(root, 'home/.config/repa') });
    for (const path of ['home/.pi/agent/auth.json', 'home/.config/repa/trusted-spaces.json']) {
      expect((await repaErrorOf(call('read', { path }))).code).toBe('protected_path');
      expect((await repaErrorOf(call('write', { path, content: '[]' }))).code).toBe(
        'protected_path',
      );
    }
    const grep = textOf(await call('grep', { pattern: 'sk-secret|\\[\\]', includeIgnored: true }));
    expect(grep).not.toContain('sk-secret');
    expect(grep).not.toContain('trusted-spaces');
    const find = textOf(await call('find', { pattern: '**/*.json', includeIgnored: true }));
    expect(find).not.toMatch(/auth\.json|trusted-spaces/);
    expect(textOf(await call('ls', { path: 'home/.config' }))).not.toContain('repa');
  });
});

describe('protected places: a command cannot change or create them', () => {
  it('binds the existing ones read-only and moves out the ones it makes', async () => {
    const root = await armedSpace();
    const before = await snapshot(root);
    const { store } = await openTools(root);
    const tool = createSandboxedBashTool({
      store,
      observer: new ContentObserver(store),
      timeoutSeconds: () => 60,
    });
    const command = [
      'echo x >> AGENTS.md',
      'echo x >> .pi/settings.json',
      'echo "[core] fsmonitor = evil" >> .git/config',
      'echo x >> vendor/lib/config',
      'echo x >> links/gitconfig',
      'echo x >> notes/claude-source.md',
      'rm -rf .agents',
      'mkdir -p .pi/extensions deep/.pi/extensions',
      'echo evil > .pi/extensions/x.js',
      'echo evil > deep/.pi/extensions/x.js',
      'echo obey > deep/CLAUDE.md',
      'true',
    ].join('; ');
    const result = await tool.execute('call-1', { command }, undefined, undefined, {
      cwd: root,
    } as ExtensionContext);
    const after = await snapshot(root);
    // The new folder `deep` stays; what the command put in it that Pi would read is moved out.
    expect(after).toEqual({ ...before, deep: '/' });
    expect(textOf(result as never)).toContain('deep/.pi');
  });

  it('moves out a git repository a command makes at the space root', async () => {
    const root = await space({ 'notes/a.md': 'tides\n' });
    const { store } = await openTools(root);
    const tool = createSandboxedBashTool({
      store,
      observer: new ContentObserver(store),
      timeoutSeconds: () => 60,
    });
    const command = 'git init -q . && git config core.fsmonitor "touch armed" && echo ok';
    const result = await tool.execute('call-1', { command }, undefined, undefined, {
      cwd: root,
    } as ExtensionContext);
    expect(textOf(result as never)).toContain('.git');
    expect(await snapshot(root)).toEqual({ notes: '/', 'notes/a.md': 'tides\n' });
  });

  it('refuses a new .git file or folder at the root by any saving tool', async () => {
    const root = await space({ 'notes/a.md': 'tides\n' });
    const { call } = await openTools(root);
    for (const path of ['.git', '.git/config', '.GIT/hooks/pre-commit']) {
      const error = await repaErrorOf(call('write', { path, content: 'gitdir: elsewhere\n' }));
      expect(error.code).toBe('protected_path');
    }
    expect(await snapshot(root)).toEqual({ notes: '/', 'notes/a.md': 'tides\n' });
  });
});
