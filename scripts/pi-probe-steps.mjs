// The steps of `npm run pi:probe` (scripts/pi-probe.mjs) that touch the world: commands, the
// registry, the workspace copy, install and build, type-check and the seam suites' runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  nodeEngineAccepts,
  parseTscErrors,
  piExportsOf,
  piImportsOf,
  piSymbolsOf,
  seamRuns,
  setCatalog,
} from './pi-probe-lib.mjs';

export const PI = '@earendil-works/pi-coding-agent';
export const PI_AI = '@earendil-works/pi-ai';
export const root = fileURLToPath(new URL('..', import.meta.url));
export const started = Date.now();
export const log = (text) =>
  process.stderr.write(`[pi:probe ${Math.round((Date.now() - started) / 1000)}s] ${text}\n`);

/** Runs a command; resolves with its exit code and combined output (never rejects). */
export function run(command, args, { cwd = root, env = {}, input } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    if (input !== undefined) child.stdin.end(input);
    child.on('error', (error) => resolve({ code: -1, output: String(error) }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

export const lastLines = (output, n = 3) =>
  output
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colours.
    .replace(/\u001b\[[0-9;]*m/gu, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /err|fail|cannot|not found|No matching/iu.test(line))
    .slice(0, n)
    .join(' / ');

/** `npm view <spec> <fields> --json`, parsed; undefined when nothing matches. */
async function npmView(spec, fields) {
  const { code, output } = await run('npm', ['view', spec, ...fields, '--json']);
  if (code !== 0 || output.trim() === '') return undefined;
  try {
    return JSON.parse(output);
  } catch {
    return undefined;
  }
}

const highest = (value) => (Array.isArray(value) ? value.at(-1) : value);

/** Resolves a release's dependencies (and those of its `@earendil-works/*` ones) on the registry. */
export async function checkRegistry(version, nodeVersion) {
  const manifest = await npmView(`${PI}@${version}`, ['version', 'dependencies', 'engines']);
  if (manifest === undefined) return { ok: false, detail: `${PI}@${version} is not published` };
  const missing = [];
  const resolved = new Map();
  const engines = [];
  const queue = [[PI, version, manifest]];
  const seen = new Set();
  while (queue.length > 0) {
    const [owner, , info] = queue.shift();
    const accepts = nodeEngineAccepts(info.engines?.node, nodeVersion);
    if (accepts === false) engines.push(`${owner} needs node ${info.engines.node}`);
    if (accepts === undefined)
      engines.push(`${owner} engines.node "${info.engines.node}" unchecked`);
    const deps = Object.entries(info.dependencies ?? {});
    const answers = await Promise.all(
      deps.map(async ([name, range]) => {
        const key = `${name}@${range}`;
        if (seen.has(key)) return undefined;
        seen.add(key);
        const internal = name.startsWith('@earendil-works/');
        const found = await npmView(
          key,
          internal ? ['version', 'dependencies', 'engines'] : ['version'],
        );
        return { name, range, found: internal ? highestManifest(found) : highest(found) };
      }),
    );
    for (const answer of answers) {
      if (answer === undefined) continue;
      if (answer.found === undefined) {
        missing.push(`${answer.name}@${answer.range} (required by ${owner})`);
        continue;
      }
      const resolvedVersion =
        typeof answer.found === 'string' ? answer.found : answer.found.version;
      if (!resolved.has(answer.name)) resolved.set(answer.name, resolvedVersion);
      if (typeof answer.found === 'object')
        queue.push([`${answer.name}@${resolvedVersion}`, resolvedVersion, answer.found]);
    }
  }
  const problems = [
    ...missing.map((m) => `unpublished: ${m}`),
    ...engines.filter((e) => e.includes('needs')),
  ];
  return {
    ok: problems.length === 0,
    detail:
      problems.length > 0
        ? problems.join('; ')
        : `${seen.size} dependencies resolve; engines accept node ${nodeVersion}${engines.length ? ` (${engines.join('; ')})` : ''}`,
    piAi: resolved.get(PI_AI),
    typebox: resolved.get('typebox'),
  };
}

const highestManifest = (found) => (Array.isArray(found) ? found.at(-1) : found);

/** Extracts `HEAD` of this checkout into `dir` (uncommitted changes are not part of a probe). */
export async function copyWorkspace(dir) {
  mkdirSync(dir, { recursive: true });
  const archive = await run('sh', [
    '-c',
    `git -C "${root}" archive --format=tar HEAD | tar -x -C "${dir}"`,
  ]);
  return archive.code === 0 ? undefined : lastLines(archive.output) || archive.output.slice(0, 200);
}

const pnpm = join(root, 'node_modules', '.bin', 'pnpm');
export const pathWith = (dir) => ({
  PATH: [
    join(dir, 'node_modules', '.bin'),
    join(root, 'node_modules', '.bin'),
    process.env.PATH,
  ].join(delimiter),
});

/** Installs (offline from the lockfile when the catalog is unchanged), builds with turbo --force. */
export async function prepare(dir, catalog, frozen) {
  if (catalog) {
    const file = join(dir, 'pnpm-workspace.yaml');
    writeFileSync(file, setCatalog(readFileSync(file, 'utf8'), catalog));
  }
  const install = await run(
    pnpm,
    frozen
      ? ['install', '--frozen-lockfile', '--offline']
      : ['install', '--no-frozen-lockfile', '--prefer-offline'],
    { cwd: dir, env: { ...pathWith(dir), CI: '1' } },
  );
  if (install.code !== 0) return { install: { status: 'fail', detail: lastLines(install.output) } };
  const installed = JSON.parse(
    readFileSync(
      join(dir, 'packages/host/node_modules/@earendil-works/pi-coding-agent/package.json'),
      'utf8',
    ),
  ).version;
  const build = await run('turbo', ['run', 'build', '--force', '--output-logs=errors-only'], {
    cwd: dir,
    env: pathWith(dir),
  });
  return {
    installed,
    install: { status: 'pass', detail: `Pi ${installed} installed in ${dir}` },
    build: {
      status: build.code === 0 ? 'pass' : 'fail',
      detail: build.code === 0 ? 'turbo run build --force' : lastLines(build.output, 4),
    },
  };
}

/** `tsc --build --force` in the copy, each error with the Pi symbol it names. */
export async function typeCheck(dir) {
  const { code, output } = await run('tsc', ['--build', '--force', '--pretty', 'false'], {
    cwd: dir,
    env: pathWith(dir),
  });
  const exported = new Set();
  for (const pkg of ['pi-coding-agent', 'pi-ai']) {
    const dts = join(dir, 'packages/host/node_modules/@earendil-works', pkg, 'dist/index.d.ts');
    if (existsSync(dts))
      for (const name of piExportsOf(readFileSync(dts, 'utf8'))) exported.add(name);
  }
  const errors = parseTscErrors(output).map((error) => {
    const path = join(dir, error.file);
    const names = new Set(exported);
    if (existsSync(path))
      for (const name of piImportsOf(readFileSync(path, 'utf8'))) names.add(name);
    return { ...error, file: relative(dir, path), symbols: piSymbolsOf(error.message, names) };
  });
  return { code, errors };
}

/** Runs the seam files of every package with vitest's JSON reporter; returns the reports. */
export async function runSeams(dir, seams, out, env = {}) {
  const reports = [];
  for (const { dir: pkg, files } of seamRuns(seams)) {
    const file = join(out, `${pkg.replace('/', '-')}.json`);
    log(`seams: ${pkg} (${files.length} files)`);
    await run('vitest', ['run', ...files, '--reporter=json', `--outputFile=${file}`], {
      cwd: join(dir, pkg),
      env: { ...pathWith(dir), CI: '1', ...env },
    });
    reports.push(existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
  }
  return reports;
}

export const readVerdicts = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
    : [];
