#!/usr/bin/env node
// Release check (spec R83), part of `npm run check`: for every published workspace package,
// (1) a change to what it ships (`src/` outside tests, `package.json` other than `version`) since
// its last release names it in a pending `.changeset/*.md`, and (2) its `version` is the newest
// entry of its CHANGELOG.md, so a version moves only by `changeset version`. The last release is
// the newest commit that changed the package's `version` (found with git alone: it works on a
// fresh clone with no tags). Usage: `node scripts/check-changesets.mjs [root]`; exit 1 on any
// violation.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const git = (root, ...args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** The `version` of `path` at `commit`, or undefined when the file is not there. */
function versionAt(root, commit, path) {
  try {
    return JSON.parse(git(root, 'show', `${commit}:${path}`)).version;
  } catch {
    return undefined;
  }
}

/** The newest commit that changed `version` in `manifestPath`, or undefined (never released). */
function releaseCommit(root, manifestPath) {
  const commits = git(root, 'log', '--format=%H', '--', manifestPath).split('\n').filter(Boolean);
  return commits.find((commit) => {
    const parents = git(root, 'rev-list', '--parents', '-n', '1', commit)
      .trim()
      .split(' ')
      .slice(1);
    const version = versionAt(root, commit, manifestPath);
    return parents.length === 0
      ? version !== undefined && version !== '0.0.0'
      : parents.every((parent) => versionAt(root, parent, manifestPath) !== version);
  });
}

/** The package names each pending changeset names in its front matter. */
function pendingChangesets(root) {
  const folder = join(root, '.changeset');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .map((name) => {
      const text = readFileSync(join(folder, name), 'utf8');
      const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
      const packages = [...front.matchAll(/^\s*["']?([^"':\s]+)["']?\s*:/gm)].map((m) => m[1]);
      return { name, packages };
    });
}

/** Whether a changed file is part of what the package ships (tests are not). */
const ships = (file) =>
  file.startsWith('src/') && !/\.test\.tsx?$/.test(file) && !/(^|\/)test\//.test(file);

/** The manifest without `version`, to compare two of them. */
const withoutVersion = (text) => {
  const { version: _version, ...rest } = JSON.parse(text);
  return JSON.stringify(rest);
};

/** The published packages of the workspace: `{ dir, manifest }`. */
function publishedPackages(root) {
  const found = [];
  for (const group of ['packages', 'apps']) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group))) {
      const path = join(root, group, name, 'package.json');
      if (!existsSync(path)) continue;
      const manifest = JSON.parse(readFileSync(path, 'utf8'));
      if (!manifest.private) found.push({ dir: join(root, group, name), manifest });
    }
  }
  return found;
}

/** The newest version CHANGELOG.md has an entry for (`## 1.2.3`), or undefined. */
function changelogVersion(dir) {
  const path = join(dir, 'CHANGELOG.md');
  if (!existsSync(path)) return undefined;
  return /^## +(\d+\.\d+\.\d+\S*)/m.exec(readFileSync(path, 'utf8'))?.[1];
}

/** Every violation of the two release rules under `root`, as human-readable lines. */
export function checkChangesets(root) {
  const violations = [];
  const changesets = pendingChangesets(root);
  for (const { dir, manifest } of publishedPackages(root)) {
    const where = relative(root, dir);
    const { name, version } = manifest;
    const logged = changelogVersion(dir);
    if (version !== '0.0.0' && logged !== version) {
      violations.push(
        `${where}/package.json: ${name} is at ${version} but the newest entry of its CHANGELOG.md is ${logged ?? 'none'}; versions change only by \`npx changeset version\``,
      );
    }
    if (changesets.some((changeset) => changeset.packages.includes(name))) continue;
    const manifestPath = `${where}/package.json`;
    const base = releaseCommit(root, manifestPath);
    if (base === undefined) {
      if (version === '0.0.0') continue;
      violations.push(`${where}: ${name} has no release commit (no commit changed its version)`);
      continue;
    }
    const changed = git(root, 'diff', '--name-only', base, '--', where)
      .split('\n')
      .filter(Boolean)
      .map((file) => relative(where, file))
      .filter(ships);
    const manifestNow = readFileSync(join(root, manifestPath), 'utf8');
    if (
      withoutVersion(git(root, 'show', `${base}:${manifestPath}`)) !== withoutVersion(manifestNow)
    ) {
      changed.push('package.json');
    }
    if (changed.length > 0) {
      const shown = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ', …' : '');
      violations.push(
        `${where}: ${name} changed since its release ${version} (${base.slice(0, 7)}: ${shown}) and no .changeset/*.md names it`,
      );
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkChangesets(root);
  if (violations.length > 0) {
    console.error(`Changeset check failed (${violations.length}):`);
    for (const line of violations) console.error(`  ${line}`);
    console.error(
      'Fix: add a changeset naming each changed package (`npx changeset`, see CONTRIBUTING.md), and move versions only with `npx changeset version`.',
    );
    process.exit(1);
  }
  console.log('Changeset check passed.');
}
