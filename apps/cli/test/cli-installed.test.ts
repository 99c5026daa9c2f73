import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CliSandbox, createSandbox, nodeBinary, sandboxArgs } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

const apps = fileURLToPath(new URL('../..', import.meta.url));
const packages = fileURLToPath(new URL('../../../packages', import.meta.url));

interface Manifest {
  name: string;
  private?: boolean;
  files?: string[];
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
}

const manifestOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/**
 * An installed layout as npm or pnpm makes it from the published packages: the CLI, the daemon
 * and the web app it serves as their packed files (`package.json` and `dist/`) side by side in `node_modules/@repa`, the
 * libraries they use linked from the workspace. Nothing resolves to `apps/` any more.
 */
function installedLayout(sandbox: CliSandbox): string {
  const scope = join(sandbox.root, 'installed', 'node_modules', '@repa');
  mkdirSync(scope, { recursive: true });
  for (const app of ['cli', 'daemon', 'web']) {
    const from = join(apps, app);
    cpSync(join(from, 'package.json'), join(scope, app, 'package.json'));
    cpSync(join(from, 'dist'), join(scope, app, 'dist'), { recursive: true });
  }
  for (const library of ['application', 'protocol']) {
    symlinkSync(join(packages, library), join(scope, library), 'dir');
  }
  return scope;
}

describe('the CLI as installed from its package', () => {
  const sandbox = createSandbox();
  const installedCli = (scope: string, args: string[]) =>
    execFileSync(
      nodeBinary,
      [join(scope, 'cli', 'dist', 'main.js'), ...sandboxArgs(sandbox), ...args],
      {
        cwd: sandbox.space,
        env: sandbox.env,
        encoding: 'utf8',
        timeout: 90_000,
      },
    );
  let scope: string | undefined;
  afterAll(() => {
    if (scope) installedCli(scope, ['daemon', 'stop', '--json']);
  });

  it('depends on a publishable @repa/daemon whose package ships its bin', () => {
    const cli = manifestOf(join(apps, 'cli'));
    const daemon = manifestOf(join(apps, 'daemon'));
    expect(cli.dependencies).toHaveProperty('@repa/daemon');
    expect(daemon.private).toBeUndefined();
    expect(daemon.files).toContain('dist/**/*');
    expect(daemon.bin?.['repa-daemon']).toBe('./dist/main.js');
  });

  it('starts the daemon of the installed @repa/daemon package', { timeout: 120_000 }, () => {
    scope = installedLayout(sandbox);
    const started = JSON.parse(
      installedCli(scope, ['daemon', 'start', '--model', 'repa-offline', '--json']),
    ) as { started: boolean; running: boolean; pid: number };
    expect(started).toMatchObject({ started: true, running: true });
    const command = execFileSync('ps', ['-o', 'args=', '-p', String(started.pid)], {
      encoding: 'utf8',
    });
    expect(command).toContain(join(scope, 'daemon', 'dist', 'main.js'));
  });

  it('serves the installed @repa/web app (repa web)', { timeout: 60_000 }, async () => {
    if (!scope) throw new Error('the daemon test above did not run');
    const { url } = JSON.parse(installedCli(scope, ['web', '--no-open', '--json'])) as {
      url: string;
    };
    const login = await fetch(url, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const page = await fetch(new URL('/', url), { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="/app.js"></script>');
  });
});
