import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The check as `npm test` runs it, in a process of its own: its PATH is a temp folder holding at
// most a stand-in `apt-get` (a real process that logs its arguments), so no real package is looked
// at or installed and nothing reaches the network.

const script = fileURLToPath(new URL('./check-system-tools.mjs', import.meta.url));
const ALL = 'bubblewrap chromium tmux tesseract-ocr procps';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A PATH folder, with an `apt-get` when `aptGet` is given: it logs its arguments and
 * DEBIAN_FRONTEND to `apt-get.log`, then `install` does what `aptGet` says.
 */
function bin(aptGet?: 'installs' | 'fails' | 'does nothing') {
  const dir = mkdtempSync(join(tmpdir(), 'repa-system-tools-'));
  dirs.push(dir);
  const chromium = join(dir, 'chromium-browser');
  const log = join(dir, 'apt-get.log');
  if (aptGet !== undefined) {
    const fake = join(dir, 'fake-apt-get.mjs');
    writeFileSync(
      fake,
      `import { appendFileSync, writeFileSync } from 'node:fs';
const [dir, chromium, log, mode, ...args] = process.argv.slice(2);
appendFileSync(log, args.join(' ') + ' DEBIAN_FRONTEND=' + process.env.DEBIAN_FRONTEND + '\\n');
if (args[0] === 'install' && mode === 'fails') {
  console.error('E: Unable to locate package bubblewrap');
  process.exit(100);
}
if (args[0] === 'install' && mode === 'installs')
  for (const file of [dir + '/bwrap', dir + '/tmux', dir + '/tesseract', dir + '/ps', chromium])
    writeFileSync(file, '#!/bin/sh\\n', { mode: 0o755 });
`,
    );
    writeFileSync(
      join(dir, 'apt-get'),
      `#!/bin/sh\nexec "${process.execPath}" "${fake}" "${dir}" "${chromium}" "${log}" "${aptGet}" "$@"\n`,
      { mode: 0o755 },
    );
  }
  const aptGetCalls = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
  return { dir, chromium, aptGetCalls };
}

function check(path: string, chromium: string, uid: number) {
  return spawnSync(process.execPath, [script], {
    env: { PATH: path, REPA_CHROMIUM: chromium, REPA_SYSTEM_CHECK_UID: String(uid) },
    encoding: 'utf8',
  });
}

describe('check-system-tools', () => {
  it('stops a non-root user at once, naming each missing tool, its package and the command', () => {
    const { dir, chromium, aptGetCalls } = bin('installs');
    const result = check(dir, chromium, 1000);
    expect(result.status).toBe(1);
    const named = `${chromium} ($REPA_CHROMIUM)`;
    const row = (name: string, text: string) => `  ${name.padEnd(named.length)}  ${text}`;
    expect(result.stderr).toBe(
      [
        'npm test stopped: the tests need system tools that are missing here:',
        row(
          'bwrap',
          "(package bubblewrap) the bash tool's sandbox tests (packages/host, apps/cli)",
        ),
        row(named, "(package chromium) the web app's browser tests (apps/web/test)"),
        row('tmux', "(package tmux) the CLI's terminal tests (apps/cli)"),
        row(
          'tesseract',
          '(package tesseract-ocr) OCR of scanned pages (packages/documents, apps/cli)',
        ),
        row('ps', '(package procps) the installed-CLI test (apps/cli)'),
        'Install them, then run npm test again:',
        `  sudo apt-get install ${ALL}`,
        '',
      ].join('\n'),
    );
    expect(aptGetCalls()).toBe('');
  });

  it('stops without apt-get, even as root, naming the packages', () => {
    const { dir, chromium } = bin();
    const result = check(dir, chromium, 0);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `\n  apt-get install ${ALL}   (on Debian or Ubuntu; elsewhere, the same packages)\n`,
    );
  });

  it('installs the missing packages as root with apt-get, then passes silently', () => {
    const { dir, chromium, aptGetCalls } = bin('installs');
    const result = check(dir, chromium, 0);
    expect(result.stderr).toMatch(new RegExp(`^npm test: installing ${ALL} with apt-get, for `));
    expect(result.status).toBe(0);
    expect(aptGetCalls()).toBe(
      `update -qq DEBIAN_FRONTEND=noninteractive\ninstall -y -qq ${ALL} DEBIAN_FRONTEND=noninteractive\n`,
    );
    const again = check(dir, chromium, 0);
    expect([again.status, again.stderr]).toEqual([0, '']);
    expect(aptGetCalls().split('\n')).toHaveLength(3);
  });

  it("stops with apt-get's own words when it cannot install them", () => {
    const { dir, chromium } = bin('fails');
    const result = check(dir, chromium, 0);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      [
        `apt-get install -y -qq ${ALL} failed (exit 100):`,
        '  E: Unable to locate package bubblewrap',
        'Install them, then run npm test again:',
        `  apt-get install ${ALL}`,
        '',
      ].join('\n'),
    );
  });

  it('stops, naming what is still not found, when apt-get succeeded without installing it', () => {
    const { dir, chromium } = bin('does nothing');
    const result = check(dir, chromium, 0);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `\napt-get installed them, but they are still not found: check the PATH.\nInstall them, then run npm test again:\n  apt-get install ${ALL}\n`,
    );
  });
});
