import { describe, expect, it } from 'vitest';
import { formatTable, packageSeams, packageVerdicts } from './pi-probe-lib.mjs';

describe('package verdicts', () => {
  const split = packageSeams([
    {
      name: 'projection',
      files: ['packages/context/src/a.test.ts', 'packages/host/test/b.test.ts#learning'],
    },
    { name: 'tools', files: ['packages/content/src/tools/edit-tool.test.ts'] },
  ]);
  const packages = ['@repa/context', '@repa/content', '@repa/host', '@repa/settings'];
  const suite = (name: string, verdict: string, failures: string[] = []) => {
    const seam = split.find((s) => s.name === name);
    return {
      suite: name,
      seam: seam?.seam,
      package: seam?.package,
      verdict,
      status: verdict === 'pass' ? 'pass' : 'fail',
      failures: failures.map((test) => ({ test, message: 'x' })),
    };
  };

  it('splits each seam suite by the package of its files', () => {
    expect(split).toEqual([
      {
        name: 'projection · @repa/context',
        seam: 'projection',
        package: '@repa/context',
        files: ['packages/context/src/a.test.ts'],
      },
      {
        name: 'projection · @repa/host',
        seam: 'projection',
        package: '@repa/host',
        files: ['packages/host/test/b.test.ts#learning'],
      },
      {
        name: 'tools · @repa/content',
        seam: 'tools',
        package: '@repa/content',
        files: ['packages/content/src/tools/edit-tool.test.ts'],
      },
    ]);
  });

  it('judges each package by its own suites, type errors and adapters', () => {
    const report = {
      version: '1.6.0',
      against: '0.87.1',
      steps: [{ name: 'install', status: 'pass' }],
      typeErrors: [{ file: 'packages/content/src/x.ts', line: 3, code: 'TS2305', message: 'm' }],
      suites: [
        suite('projection · @repa/context', 'pass'),
        suite('projection · @repa/host', 'already failing', ['host learning']),
        suite('tools · @repa/content', 'pass'),
      ],
      adapters: [{ adapter: 'proxy', package: '@repa/context', verdict: 'KEEP', detail: '' }],
    };
    expect(packageVerdicts(report, packages)).toEqual([
      { package: '@repa/context', verdict: 'pass', detail: '1 seam suite(s): projection' },
      {
        package: '@repa/content',
        verdict: 'regressed',
        detail: 'packages/content/src/x.ts:3 TS2305',
      },
      {
        package: '@repa/host',
        verdict: 'fail',
        detail: 'failing at the baseline too: projection',
      },
      { package: '@repa/settings', verdict: 'no Pi suite', detail: '' },
    ]);
    const regressed = packageVerdicts(
      {
        ...report,
        typeErrors: [],
        suites: [suite('projection · @repa/host', 'regression', ['host learning'])],
        adapters: [{ adapter: 'proxy', package: '@repa/context', verdict: 'CHANGED', detail: '' }],
      },
      packages,
    );
    expect(regressed.map((p) => [p.package, p.verdict, p.detail])).toEqual([
      ['@repa/context', 'regressed', 'adapter proxy changed'],
      ['@repa/content', 'no Pi suite', ''],
      ['@repa/host', 'regressed', 'projection: host learning'],
      ['@repa/settings', 'no Pi suite', ''],
    ]);
  });

  it('calls every package not run when a step before the suites failed', () => {
    const report = { version: '1', against: '0', steps: [{ name: 'install', status: 'fail' }] };
    expect(packageVerdicts(report, ['@repa/host']).map((p) => p.verdict)).toEqual(['not run']);
  });

  it('prints a row and a verdict line per package instead of one for the whole', () => {
    const report = {
      version: '1.6.0',
      against: '0.87.1',
      steps: [{ name: 'install', status: 'pass', detail: '' }],
      packages: [
        { package: '@repa/context', verdict: 'pass', detail: '1 seam suite(s): projection' },
        { package: '@repa/host', verdict: 'regressed', detail: 'projection: host learning' },
      ],
    };
    const lines = formatTable(report).split('\n');
    expect(lines.find((l) => l.startsWith('package: @repa/host'))).toMatch(
      /REGRESSED\s+projection: host learning$/u,
    );
    expect(lines.slice(-2)).toEqual([
      'verdict @repa/context: SAFE (pass)',
      'verdict @repa/host: NOT SAFE (regressed)',
    ]);
    expect(lines.some((l) => l.startsWith('verdict:'))).toBe(false);
  });
});
