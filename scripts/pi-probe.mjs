#!/usr/bin/env node
// `npm run pi:probe -- <version> [--against <version>] [--keep]` (spec R81): judges a Pi release
// without touching this checkout. Checks the release's declared dependencies and engines on the
// registry, copies the committed workspace (`git archive HEAD`) into a temp dir, sets the Pi
// versions and typebox in the copy's catalog, installs, builds and type-checks with caching forced
// off, runs the Pi seam suites (scripts/pi-seams.json, split by package) and the adapter sentinels,
// re-runs failing suites at the baseline, checks the pinned Pi reads a session the probed one wrote,
// and prints one table ending in a verdict per package (spec R86). Exits 1 on any regression. The logic that decides lives in pi-probe-lib.mjs (unit tested),
// the steps that run commands in pi-probe-steps.mjs.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  adapterVerdicts,
  catalogVersion,
  exitCode,
  formatTable,
  packageSeams,
  packageVerdicts,
  parseArgs,
  suiteOutcomes,
  suiteVerdicts,
} from './pi-probe-lib.mjs';
import {
  checkRegistry,
  copyWorkspace,
  lastLines,
  log,
  PI,
  PI_AI,
  pathWith,
  prepare,
  readVerdicts,
  root,
  run,
  runSeams,
  started,
  typeCheck,
} from './pi-probe-steps.mjs';

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const pinned = catalogVersion(yaml, PI);
  const against = options.against ?? pinned;
  const nodeVersion = /^nodeVersion:\s*(\S+)/mu.exec(yaml)?.[1] ?? process.versions.node;
  const manifest = JSON.parse(readFileSync(join(root, 'scripts', 'pi-seams.json'), 'utf8'));
  const { adapters } = manifest;
  // Each seam suite split by package: every package gets its own verdict (spec R86).
  const seams = packageSeams(manifest.seams);
  const packages = readdirSync(join(root, 'packages'))
    .filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')))
    .map((dir) => `@repa/${dir}`);
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
    report.packages = packageVerdicts(report, packages);
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
          package: '@repa/host',
        });
      } else {
        outcomes.push({
          suite: `session by Pi ${options.version} read by Pi ${against}`,
          package: '@repa/host',
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
    report.suites = suiteVerdicts(outcomes, baseline).map((suite) => {
      const seam = seams.find((s) => s.name === suite.suite);
      return { seam: seam?.seam ?? suite.suite, package: seam?.package, ...suite };
    });
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
