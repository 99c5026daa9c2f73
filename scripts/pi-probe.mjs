#!/usr/bin/env node
// `npm run pi:probe -- <version> [--against <version>] [--keep]` (spec R81): judges a Pi release
// without touching this checkout. Checks the release's declared dependencies and engines on the
// registry, copies the committed workspace (`git archive HEAD`) into a temp dir, sets the Pi
// versions and typebox in the copy's catalog, installs, builds and type-checks with caching forced
// off, runs the Pi seam suites (scripts/pi-seams.json) and the adapter sentinels, re-runs failing
// suites at the baseline, checks the pinned Pi reads a session the probed one wrote, and prints one
// table. Exits 1 on any regression. The logic that decides lives in pi-probe-lib.mjs (unit tested).
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adapterVerdicts,
  catalogVersion,
  exitCode,
  formatTable,
  nodeEngineAccepts,
  parseArgs,
  parseTscErrors,
  piExportsOf,
  piImportsOf,
  piSymbolsOf,
  seamRuns,
  setCatalog,
  suiteOutcomes,
  suiteVerdicts,
} from './pi-probe-lib.mjs';

const PI = '@earendil-works/pi-coding-agent';
const PI_AI = '@earendil-works/pi-ai';
const root = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
const log = (text) =>
  process.stderr.write(`[pi:probe ${Math.round((Date.now() - started) / 1000)}s] ${text}\n`);

/** Runs a command; resolves with its exit code and combined output (never rejects). */
function run(command, args, { cwd = root, env = {}, input } = {}) {
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

const lastLines = (output, n = 3) =>
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
async function checkRegistry(version, nodeVersion) {
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
async function copyWorkspace(dir) {
  mkdirSync(dir, { recursive: true });
  const archive = await run('sh', [
    '-c',
    `git -C "${root}" archive --format=tar HEAD | tar -x -C "${dir}"`,
  ]);
  return archive.code === 0 ? undefined : lastLines(archive.output) || archive.output.slice(0, 200);
}

const pnpm = join(root, 'node_modules', '.bin', 'pnpm');
const pathWith = (dir) => ({
  PATH: [
    join(dir, 'node_modules', '.bin'),
    join(root, 'node_modules', '.bin'),
    process.env.PATH,
  ].join(delimiter),
});

/** Installs (offline from the lockfile when the catalog is unchanged), builds with turbo --force. */
async function prepare(dir, catalog, frozen) {
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
async function typeCheck(dir) {
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
async function runSeams(dir, seams, out, env = {}) {
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

const readVerdicts = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
    : [];

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const pinned = catalogVersion(yaml, PI);
  const against = options.against ?? pinned;
  const nodeVersion = /^nodeVersion:\s*(\S+)/mu.exec(yaml)?.[1] ?? process.versions.node;
  const { seams, adapters } = JSON.parse(
    readFileSync(join(root, 'scripts', 'pi-seams.json'), 'utf8'),
  );
  const report = {
    version: options.version,
    against,
    steps: [],
    typeErrors: [],
    suites: [],
    adapters: [],
  };
  const temp = mkdtempSync(join(tmpdir(), 'repa-pi-probe-'));
  process.once('SIGINT', () => {
    if (!options.keep) rmSync(temp, { recursive: true, force: true });
    process.exit(130);
  });
  const finish = () => {
    report.seconds = Math.round((Date.now() - started) / 1000);
    process.stdout.write(`${formatTable(report)}\n`);
    if (options.keep) process.stdout.write(`copy kept in ${temp}\n`);
    else rmSync(temp, { recursive: true, force: true });
    return exitCode(report);
  };
  try {
    log(`registry: ${PI}@${options.version}`);
    const registry = await checkRegistry(options.version, nodeVersion);
    report.steps.push({
      name: 'registry (deps, engines)',
      status: registry.ok ? 'pass' : 'fail',
      detail: registry.detail,
    });
    if (!registry.ok) {
      report.steps.push({
        name: 'install',
        status: 'fail',
        detail: 'skipped: the release cannot be installed',
      });
      return finish();
    }
    const probe = join(temp, 'probe');
    const copyError = await copyWorkspace(probe);
    report.steps.push({
      name: 'copy (git archive HEAD)',
      status: copyError ? 'fail' : 'pass',
      detail: copyError ?? probe,
    });
    if (copyError) return finish();
    const catalog = { [PI]: options.version, [PI_AI]: registry.piAi ?? options.version };
    if (registry.typebox) catalog.typebox = registry.typebox;
    log(
      `install + build: ${Object.entries(catalog)
        .map(([k, v]) => `${k}@${v}`)
        .join(', ')}`,
    );
    const probed = await prepare(probe, catalog, false);
    report.steps.push({ name: 'install', ...probed.install });
    if (probed.install.status === 'fail') return finish();
    report.steps.push({ name: 'build', ...probed.build });
    log('type-check: tsc --build --force');
    const types = await typeCheck(probe);
    report.steps.push({
      name: 'type-check',
      status: types.code === 0 ? 'pass' : 'fail',
      detail: types.code === 0 ? 'tsc --build --force' : `${types.errors.length} error(s)`,
    });
    report.typeErrors = types.errors;

    const verdicts = join(temp, 'verdicts');
    mkdirSync(verdicts);
    const outcomes = suiteOutcomes(
      seams,
      await runSeams(probe, seams, temp, { REPA_PI_PROBE_VERDICTS: verdicts }),
    );
    report.adapters = adapterVerdicts(adapters, readVerdicts(verdicts));

    log(`session written by Pi ${options.version}`);
    const session = join(temp, `pi-session-${options.version}.jsonl`);
    const written = await run(
      'node',
      ['packages/host/scripts/generate-pi-session.mjs', options.version, session],
      {
        cwd: probe,
        env: pathWith(probe),
      },
    );

    // Baseline: the `against` Pi (offline from the lockfile when it is the pinned one).
    const failing = seams.filter(
      (seam) => outcomes.find((o) => o.suite === seam.name)?.status === 'fail',
    );
    const baseDir = join(temp, 'baseline');
    await copyWorkspace(baseDir);
    log(`baseline: Pi ${against}`);
    const base = await prepare(
      baseDir,
      against === pinned ? undefined : { [PI]: against, [PI_AI]: against },
      against === pinned,
    );
    let baseline;
    if (base.install.status === 'pass' && base.build.status === 'pass') {
      if (failing.length > 0) {
        const out = join(temp, 'baseline-reports');
        mkdirSync(out);
        baseline = suiteOutcomes(failing, await runSeams(baseDir, failing, out));
      }
      if (written.code === 0) {
        const out = join(temp, 'downgrade.json');
        await run(
          'vitest',
          [
            'run',
            'test/pi-session-compat.test.ts',
            '-t',
            'probed Pi release',
            '--reporter=json',
            `--outputFile=${out}`,
          ],
          {
            cwd: join(baseDir, 'packages/host'),
            env: { ...pathWith(baseDir), CI: '1', REPA_PI_PROBE_SESSION: session },
          },
        );
        const [result] = suiteOutcomes(
          [
            {
              name: 'downgrade',
              files: ['packages/host/test/pi-session-compat.test.ts#probed Pi release'],
            },
          ],
          [existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : undefined],
        );
        outcomes.push({
          ...result,
          suite: `session by Pi ${options.version} read by Pi ${against}`,
        });
      } else {
        outcomes.push({
          suite: `session by Pi ${options.version} read by Pi ${against}`,
          status: 'fail',
          failures: [
            { test: 'generate-pi-session.mjs', message: lastLines(written.output) || 'failed' },
          ],
        });
      }
    } else {
      report.steps.push({
        name: `baseline Pi ${against}`,
        status: 'fail',
        detail: (base.install.status === 'fail' ? base.install : base.build).detail,
      });
    }
    report.suites = suiteVerdicts(outcomes, baseline);
    return finish();
  } catch (error) {
    report.steps.push({ name: 'probe', status: 'fail', detail: String(error?.stack ?? error) });
    return finish();
  }
}

process.exitCode = await main().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  return 2;
});
