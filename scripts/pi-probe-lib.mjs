// Pure logic of `npm run pi:probe` (scripts/pi-probe.mjs): arguments, catalog edits, engine and
// tsc-output parsing, seam-suite and adapter verdicts, and the table. No I/O here, so it is unit
// tested in `npm test` (scripts/pi-probe-lib.test.ts); the probe itself needs the registry.

/** Catalog entries the probe sets in the copy. */
export const PI_PACKAGES = ['@earendil-works/pi-coding-agent', '@earendil-works/pi-ai'];

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/u;

/** Parses `<version> [--against <version>] [--keep]`; throws on anything else. */
export function parseArgs(argv) {
  const options = { version: undefined, against: undefined, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--keep') options.keep = true;
    else if (arg === '--against') {
      options.against = argv[++i];
      if (!options.against || !VERSION.test(options.against)) {
        throw new Error('--against needs a version, e.g. --against 0.87.1');
      }
    } else if (arg !== undefined && VERSION.test(arg) && options.version === undefined) {
      options.version = arg;
    } else throw new Error(`unexpected argument: ${arg}`);
  }
  if (options.version === undefined) {
    throw new Error('usage: npm run pi:probe -- <version> [--against <version>] [--keep]');
  }
  return options;
}

const catalogLine = (name) =>
  new RegExp(`^(\\s+"?${name.replace(/[.]/gu, '\\$&')}"?:\\s*)(\\S+)\\s*$`, 'mu');

/** The version pnpm-workspace.yaml's catalog pins for `name` (undefined when absent). */
export function catalogVersion(yaml, name) {
  return catalogLine(name).exec(yaml)?.[2];
}

/** pnpm-workspace.yaml with the catalog entries in `versions` replaced; throws if one is missing. */
export function setCatalog(yaml, versions) {
  let text = yaml;
  for (const [name, version] of Object.entries(versions)) {
    const line = catalogLine(name);
    if (!line.test(text)) throw new Error(`catalog has no entry for ${name}`);
    text = text.replace(line, `$1${version}`);
  }
  return text;
}

const parts = (version) => version.split(/[.-]/u).slice(0, 3).map(Number);

/**
 * Whether `engines.node` admits `nodeVersion`: `true`/`false` for `>=x.y.z` (the only form Pi
 * declares), `undefined` for a range this check does not understand (reported as unchecked).
 */
export function nodeEngineAccepts(range, nodeVersion) {
  if (range === undefined || range.trim() === '*') return true;
  const match = /^>=\s*v?(\d+(?:\.\d+){0,2})$/u.exec(range.trim());
  if (!match) return undefined;
  const want = [...parts(match[1]), 0, 0].slice(0, 3);
  const have = parts(nodeVersion.replace(/^v/u, ''));
  for (let i = 0; i < 3; i++) {
    if (have[i] !== want[i]) return have[i] > want[i];
  }
  return true;
}

/** tsc's `file(line,col): error TSxxxx: message` lines (continuation lines join the message). */
export function parseTscErrors(output) {
  const errors = [];
  for (const line of output.split(/\r?\n/u)) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/u.exec(line);
    if (match) {
      errors.push({
        file: match[1],
        line: Number(match[2]),
        column: Number(match[3]),
        code: match[4],
        message: match[5],
      });
    } else if (/^\s+\S/u.test(line) && errors.length > 0) {
      errors[errors.length - 1].message += ` ${line.trim()}`;
    }
  }
  return errors;
}

/** Names a source file imports from Pi's packages (`@earendil-works/*`), type imports included. */
export function piImportsOf(source) {
  const names = new Set();
  const pattern = /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]@earendil-works\/[^'"]+['"]/gu;
  for (const match of source.matchAll(pattern)) {
    for (const spec of match[1].split(',')) {
      const name = spec
        .trim()
        .replace(/^type\s+/u, '')
        .split(/\s+as\s+/u)[0]
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** Names a Pi `.d.ts` exports (`export { A, B as C }`, `export declare class D`, …). */
export function piExportsOf(declarations) {
  const names = new Set();
  for (const match of declarations.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/gu)) {
    for (const spec of match[1].split(',')) {
      const name = spec
        .trim()
        .replace(/^type\s+/u, '')
        .split(/\s+as\s+/u)
        .at(-1)
        ?.trim();
      if (name) names.add(name);
    }
  }
  const declared =
    /export\s+(?:declare\s+)?(?:abstract\s+)?(?:type|interface|class|function|const|let|enum)\s+([A-Za-z_$][\w$]*)/gu;
  for (const match of declarations.matchAll(declared)) names.add(match[1]);
  return names;
}

/**
 * The Pi symbols a type error is about: the quoted names in its message that the file imports from
 * Pi or that Pi exports, in order; else the Pi module it names; else none.
 */
export function piSymbolsOf(message, piNames) {
  const symbols = [];
  for (const [, text] of message.matchAll(/'([^']+)'/gu)) {
    for (const name of text.match(/[A-Za-z_$][\w$]*/gu) ?? []) {
      if (piNames.has(name) && !symbols.includes(name)) symbols.push(name);
    }
  }
  if (symbols.length > 0) return symbols;
  const module = /'"?(@earendil-works\/[^'"]+)"?'/u.exec(message);
  return module ? [module[1]] : [];
}

/** Marks a test as an adapter sentinel; its outcome goes to the adapter rows, not the suites. */
export const SENTINEL = 'adapter sentinel:';

/**
 * Per seam suite: `pass` or `fail` with failing tests, from vitest JSON reports (`testResults` of
 * each package run). A file entry `path#part` takes only tests whose full name contains `part`. A
 * suite file missing from every report, or with no matching test, counts as failed (it did not run).
 */
export function suiteOutcomes(seams, reports) {
  const results = reports.flatMap((report) => report?.testResults ?? []);
  return seams.map((seam) => {
    const failures = [];
    for (const entry of seam.files) {
      const [file, part] = entry.split('#');
      const result = results.find((r) => r.name === file || r.name.endsWith(`/${file}`));
      if (result === undefined) {
        failures.push({ test: entry, message: 'did not run' });
        continue;
      }
      const all = result.assertionResults ?? [];
      const tests = all.filter(
        (test) =>
          !test.fullName.includes(SENTINEL) && (part === undefined || test.fullName.includes(part)),
      );
      // A file of sentinels only is judged by the adapter rows.
      if (tests.length === 0 && (part !== undefined || all.length === 0)) {
        const message = result.status === 'failed' ? firstLine(result.message) : 'no test matched';
        failures.push({ test: entry, message });
      }
      for (const test of tests) {
        if (test.status === 'failed') {
          failures.push({ test: test.fullName, message: firstLine(test.failureMessages?.[0]) });
        }
      }
    }
    return { suite: seam.name, status: failures.length === 0 ? 'pass' : 'fail', failures };
  });
}

/** The packages (`packages/x`) whose seam files a run needs, each with its test files. */
export function seamRuns(seams) {
  const runs = new Map();
  for (const seam of seams) {
    for (const entry of seam.files) {
      const file = entry.split('#')[0];
      const [top, name, ...rest] = file.split('/');
      const dir = `${top}/${name}`;
      if (!runs.has(dir)) runs.set(dir, new Set());
      runs.get(dir).add(rest.join('/'));
    }
  }
  return [...runs].map(([dir, files]) => ({ dir, files: [...files] }));
}

function firstLine(text) {
  return (
    (text ?? '')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colours.
      .replace(/\u001b\[[0-9;]*m/gu, '')
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  );
}

/**
 * Final suite verdicts: `pass`; `regression` when a test fails with the probed Pi that did not fail
 * at the baseline (or the baseline was not run); `already failing` when every failing test also
 * failed at the baseline. Only the regressing tests stay listed for a regression.
 */
export function suiteVerdicts(probed, baseline) {
  return probed.map((outcome) => {
    if (outcome.status === 'pass') return { ...outcome, verdict: 'pass' };
    const before = new Set(
      (baseline?.find((b) => b.suite === outcome.suite)?.failures ?? []).map((f) => f.test),
    );
    const added = outcome.failures.filter((failure) => !before.has(failure.test));
    return added.length === 0
      ? { ...outcome, verdict: 'already failing' }
      : { ...outcome, failures: added, verdict: 'regression' };
  });
}

const VERDICTS = new Set(['KEEP', 'RETIRE', 'CHANGED']);

/** One row per adapter: the sentinel's recorded verdict, or UNKNOWN when none was recorded. */
export function adapterVerdicts(adapters, records) {
  return adapters.map((entry) => {
    const { name: adapter, package: pkg } = typeof entry === 'string' ? { name: entry } : entry;
    const at = pkg === undefined ? {} : { package: pkg };
    const record = records.find((r) => r?.adapter === adapter);
    if (!record || !VERDICTS.has(record.verdict)) {
      return { adapter, ...at, verdict: 'UNKNOWN', detail: 'the sentinel recorded no verdict' };
    }
    return { adapter, ...at, verdict: record.verdict, detail: record.detail ?? '' };
  });
}

/** The workspace package a repository path belongs to (`packages/host/…` → `@repa/host`). */
export function packageOfPath(path) {
  const [top, dir] = path.replace(/^\.\//u, '').split('/');
  return top === 'packages' && dir ? `@repa/${dir}` : undefined;
}

/**
 * The seam suites split by package: each suite's files in one package become the suite
 * `<suite> · <package>`, so every failure is judged against the package whose test it is.
 */
export function packageSeams(seams) {
  const split = [];
  for (const seam of seams) {
    const byPackage = new Map();
    for (const file of seam.files) {
      const pkg = packageOfPath(file) ?? 'workspace';
      if (!byPackage.has(pkg)) byPackage.set(pkg, []);
      byPackage.get(pkg).push(file);
    }
    for (const [pkg, files] of byPackage) {
      split.push({ name: `${seam.name} · ${pkg}`, seam: seam.name, package: pkg, files });
    }
  }
  return split;
}

/**
 * One verdict per package (spec R86): `not run` when a step before the suites failed (registry,
 * install, build); `regressed` on a type error in its files, a seam test of it failing only with
 * the probed Pi, or its adapter `CHANGED`; `fail` when its seam tests fail at the baseline too;
 * `pass` when its focused suites pass; `no Pi suite` for a package with none (Pi-free ones).
 */
export function packageVerdicts(report, packages) {
  const stepFailed = report.steps.find((step) => step.status === 'fail');
  return packages.map((pkg) => {
    const suites = (report.suites ?? []).filter((suite) => suite.package === pkg);
    const errors = (report.typeErrors ?? []).filter((error) => packageOfPath(error.file) === pkg);
    const changed = (report.adapters ?? []).filter(
      (adapter) => adapter.package === pkg && adapter.verdict === 'CHANGED',
    );
    const regressions = suites.filter((suite) => suite.verdict === 'regression');
    const causes = [
      ...errors.map((error) => `${error.file}:${error.line} ${error.code}`),
      ...regressions.flatMap((suite) => suite.failures.map((f) => `${suite.seam}: ${f.test}`)),
      ...changed.map((adapter) => `adapter ${adapter.adapter} changed`),
    ];
    if (causes.length > 0)
      return { package: pkg, verdict: 'regressed', detail: causes.join(' | ') };
    if (stepFailed)
      return { package: pkg, verdict: 'not run', detail: `${stepFailed.name} failed` };
    const failing = suites.filter((suite) => suite.verdict === 'already failing');
    if (failing.length > 0) {
      const names = failing.map((suite) => suite.seam).join(', ');
      return { package: pkg, verdict: 'fail', detail: `failing at the baseline too: ${names}` };
    }
    if (suites.length === 0) return { package: pkg, verdict: 'no Pi suite', detail: '' };
    return {
      package: pkg,
      verdict: 'pass',
      detail: `${suites.length} seam suite(s): ${suites.map((suite) => suite.seam).join(', ')}`,
    };
  });
}

/** Exit code: 1 on a failed step, a type error, a regression or a CHANGED adapter; else 0. */
export function exitCode(report) {
  const stepFailed = report.steps.some((step) => step.status === 'fail');
  const regression = (report.suites ?? []).some((suite) => suite.verdict === 'regression');
  const changed = (report.adapters ?? []).some((adapter) => adapter.verdict === 'CHANGED');
  return stepFailed || (report.typeErrors ?? []).length > 0 || regression || changed ? 1 : 0;
}

const pad = (text, width) => text + ' '.repeat(Math.max(0, width - text.length));

/** The probe's table (plain text, one row per step, type error, seam suite and adapter). */
export function formatTable(report) {
  const rows = [];
  for (const step of report.steps) rows.push([step.name, step.status.toUpperCase(), step.detail]);
  for (const error of report.typeErrors ?? []) {
    rows.push([
      'type error',
      'REGRESSION',
      `${error.file}:${error.line} ${error.code}${error.symbols?.length ? ` [Pi: ${error.symbols.join(', ')}]` : ''} ${error.message}`,
    ]);
  }
  for (const suite of report.suites ?? []) {
    const cause = suite.failures.map((f) => `${f.test}: ${f.message}`).join(' | ');
    rows.push([`seam: ${suite.suite}`, suite.verdict.toUpperCase(), cause]);
  }
  for (const adapter of report.adapters ?? []) {
    rows.push([`adapter: ${adapter.adapter}`, adapter.verdict, adapter.detail]);
  }
  const packages = report.packages ?? [];
  for (const pkg of packages) {
    rows.push([`package: ${pkg.package}`, pkg.verdict.toUpperCase(), pkg.detail]);
  }
  const first = Math.max(5, ...rows.map((r) => r[0].length));
  const second = Math.max(6, ...rows.map((r) => r[1].length));
  const header = `Pi ${report.version} against ${report.against}`;
  const lines = [
    header,
    `${pad('check', first)}  ${pad('result', second)}  detail`,
    `${'-'.repeat(first)}  ${'-'.repeat(second)}  ${'-'.repeat(6)}`,
    ...rows.map(([a, b, c]) => `${pad(a, first)}  ${pad(b, second)}  ${c ?? ''}`.trimEnd()),
    ...(packages.length > 0
      ? packages.map(
          (pkg) =>
            `verdict ${pkg.package}: ${pkg.verdict === 'regressed' || pkg.verdict === 'not run' ? 'NOT SAFE' : 'SAFE'} (${pkg.verdict})`,
        )
      : [
          `verdict: ${exitCode(report) === 0 ? 'SAFE (no regression)' : 'NOT SAFE (see REGRESSION / FAIL / CHANGED rows)'}`,
        ]),
  ];
  if (report.seconds !== undefined) lines.push(`time: ${report.seconds} s`);
  return lines.join('\n');
}
