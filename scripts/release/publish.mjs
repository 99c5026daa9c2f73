// Packs every public workspace package with pnpm (which writes `workspace:*` and `catalog:` as the
// versions they stand for, as `changeset publish` does through `pnpm publish`) and publishes each
// tarball to the registry named by the npm client's config.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folders of the workspace packages that `changeset publish` publishes (not private). */
export function publicPackages(root) {
  const dirs = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const dir = join(root, group, name);
      if (!existsSync(join(dir, 'package.json'))) continue;
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (!manifest.private) dirs.push({ dir, name: manifest.name, version: manifest.version });
    }
  }
  return dirs;
}

/** The commands running now, ended by {@link stopCommands}. */
const running = new Set();

/** Ends every command still running (on a signal, before the temp folders go). */
export function stopCommands() {
  for (const child of running) child.kill('SIGTERM');
}

/**
 * Runs `command` in `cwd` without blocking the event loop (a signal is handled at once): resolves
 * with its output, or rejects naming the command with the end of its output; with `check: false`
 * resolves `{ status, output }` whatever the exit status.
 */
export function run(command, args, { cwd, env, timeout = 600_000, check = true }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, timeout });
    running.add(child);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (status, signal) => {
      running.delete(child);
      if (!check) return resolve({ status, output });
      if (status === 0) return resolve(output);
      const why = signal ?? `exit ${status}`;
      reject(new Error(`${command} ${args.join(' ')} (in ${cwd}): ${why}\n${output.slice(-4000)}`));
    });
  });
}

/** Packs every public package, then publishes them all at once; returns each one's version by name. */
export async function packAndPublish({ root, folder, env }) {
  mkdirSync(folder, { recursive: true });
  const pnpm = join(root, 'node_modules', '.bin', 'pnpm');
  const packed = [];
  for (const pkg of publicPackages(root)) {
    const output = await run(pnpm, ['pack', '--pack-destination', folder], { cwd: pkg.dir, env });
    packed.push({ ...pkg, tarball: output.trim().split('\n').at(-1).trim() });
  }
  await Promise.all(
    packed.map(async ({ name, version, tarball }) => {
      await run('npm', ['publish', tarball, '--access', 'public'], { cwd: folder, env });
      process.stdout.write(`  published ${name}@${version}\n`);
    }),
  );
  return Object.fromEntries(packed.map(({ name, version }) => [name, version]));
}
