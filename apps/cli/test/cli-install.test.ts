import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliMain, createSandbox, nodeBinary } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run install-cli` and the bin's Node check, with the machine's own `node` where it is older
// than 22 (this machine's /usr/bin/node is 20; the bundled Node 22 is in node_modules).
const sandbox = createSandbox();
const root = fileURLToPath(new URL('../../..', import.meta.url));
const apps = join(root, 'apps', 'cli');
const { version } = JSON.parse(readFileSync(join(apps, 'package.json'), 'utf8')) as {
  version: string;
};

/** The `node` on the PATH without the workspace's `node_modules/.bin`, when older than 22.19. */
function oldNode(): string | undefined {
  for (const dir of ['/usr/bin', '/usr/local/bin', '/bin']) {
    const node = join(dir, 'node');
    if (!existsSync(node)) continue;
    const [major = 0, minor = 0] = execFileSync(node, ['-p', 'process.versions.node'], {
      encoding: 'utf8',
    })
      .trim()
      .split('.')
      .map(Number);
    if (major < 22 || (major === 22 && minor < 19)) return node;
  }
  return undefined;
}
const old = oldNode();
const systemPath = '/usr/local/bin:/usr/bin:/bin';
/** The installer runs on whatever Node the shell has: the old one where there is one. */
const installer = (binDir: string) => [
  join(root, 'scripts', 'install-cli.mjs'),
  '--bin-dir',
  binDir,
];

afterAll(() => rmSync(sandbox.root, { recursive: true, force: true }));

describe('npm run install-cli', () => {
  it('writes a repa launcher that runs from any folder on the clone’s Node 22', () => {
    const binDir = join(sandbox.root, 'bin');
    const install = execFileSync(old ?? nodeBinary, installer(binDir), {
      env: { ...sandbox.env, PATH: systemPath },
      encoding: 'utf8',
    });
    expect(install).toContain(`Installed ${join(binDir, 'repa')}`);
    expect(install).toContain('is not on your PATH');
    const elsewhere = join(sandbox.root, 'elsewhere');
    mkdirSync(elsewhere);
    const env = { ...sandbox.env, PATH: `${binDir}:${systemPath}` };
    expect(execFileSync('repa', ['--version'], { cwd: elsewhere, env, encoding: 'utf8' })).toBe(
      `${version}\n`,
    );
    const doctor = execFileSync('repa', ['doctor'], { cwd: elsewhere, env, encoding: 'utf8' });
    expect(doctor).toMatch(/^node {6}v22\.\d+\.\d+ \(ok\)$/m);
    // Again: the launcher is replaced; another file in its place is not.
    execFileSync(old ?? nodeBinary, installer(binDir), {
      env: { ...sandbox.env, PATH: systemPath },
    });
    writeFileSync(join(binDir, 'repa'), '#!/bin/sh\necho mine\n');
    const refused = spawnSync(old ?? nodeBinary, installer(binDir), {
      env: { ...sandbox.env, PATH: systemPath },
      encoding: 'utf8',
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("exists and is not Repa's launcher");
    expect(readFileSync(join(binDir, 'repa'), 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });
});

describe.skipIf(old === undefined)(`the bin on an older Node (${old})`, () => {
  it('runs again on the clone’s Node 22', () => {
    const result = spawnSync(old as string, [cliMain, '--version'], {
      env: { ...sandbox.env, PATH: systemPath },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it('says which Node it needs, and the fix, where there is no Node 22 beside it', () => {
    const copy = join(sandbox.root, 'installed', 'cli');
    cpSync(join(apps, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(apps, 'package.json'), join(copy, 'package.json'));
    const result = spawnSync(old as string, [join(copy, 'dist', 'main.js'), 'doctor'], {
      env: { ...sandbox.env, PATH: systemPath },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^repa: Repa needs Node ≥ 22\.19; found v\d+\.\d+\.\d+\.\nFix: .*npm run install-cli/,
    );
    expect(result.stderr).not.toContain('node:sqlite');
  });
});
