import { describe, expect, it } from 'vitest';
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

const yaml = `packages:
  - packages/*

catalog:
  "@earendil-works/pi-ai": 0.87.1
  "@earendil-works/pi-coding-agent": 0.87.1
  typebox: 1.3.27
  typescript: 6.0.3
`;

describe('parseArgs', () => {
  it('reads the version, --against and --keep', () => {
    expect(parseArgs(['1.6.0'])).toEqual({ version: '1.6.0', against: undefined, keep: false });
    expect(parseArgs(['1.6.0', '--against', '0.87.0', '--keep'])).toEqual({
      version: '1.6.0',
      against: '0.87.0',
      keep: true,
    });
  });

  it('refuses a missing version, a bad --against and extra arguments', () => {
    expect(() => parseArgs([])).toThrow(/usage/u);
    expect(() => parseArgs(['1.6.0', '--against'])).toThrow(/--against needs a version/u);
    expect(() => parseArgs(['1.6.0', 'latest'])).toThrow(/unexpected argument: latest/u);
  });
});

describe('catalog', () => {
  it('reads and replaces pinned versions, quoted or not, leaving other lines', () => {
    expect(catalogVersion(yaml, '@earendil-works/pi-coding-agent')).toBe('0.87.1');
    expect(catalogVersion(yaml, 'typebox')).toBe('1.3.27');
    const next = setCatalog(yaml, {
      '@earendil-works/pi-coding-agent': '1.6.0',
      '@earendil-works/pi-ai': '1.6.0',
      typebox: '1.3.28',
    });
    expect(next).toBe(
      yaml.replaceAll('0.87.1', '1.6.0').replace('typebox: 1.3.27', 'typebox: 1.3.28'),
    );
  });

  it('throws when the catalog lacks an entry', () => {
    expect(() => setCatalog(yaml, { zod: '4.0.0' })).toThrow('catalog has no entry for zod');
  });
});

describe('nodeEngineAccepts', () => {
  it('compares >= ranges and leaves other forms unchecked', () => {
    expect(nodeEngineAccepts('>=22.19.0', '22.23.3')).toBe(true);
    expect(nodeEngineAccepts('>=22.19.0', 'v22.19.0')).toBe(true);
    expect(nodeEngineAccepts('>=22.19.0', '22.18.9')).toBe(false);
    expect(nodeEngineAccepts('>= 24', '22.23.3')).toBe(false);
    expect(nodeEngineAccepts(undefined, '22.23.3')).toBe(true);
    expect(nodeEngineAccepts('^22 || ^24', '22.23.3')).toBeUndefined();
  });
});

describe('type errors', () => {
  const output = [
    "packages/content/src/test/content-tools.ts(32,15): error TS2352: Conversion of type '{ cwd: string; }' to type 'ExtensionContext' may be a mistake.",
    "  Type '{ cwd: string; }' is missing the following properties from type 'ExtensionContext': ui, hasUI",
    "packages/host/src/a.ts(3,10): error TS2305: Module '\"@earendil-works/pi-coding-agent\"' has no exported member 'Gone'.",
    'Found 2 errors.',
  ].join('\n');

  it('parses file, line, code and message, joining continuation lines', () => {
    const errors = parseTscErrors(output);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({
      file: 'packages/content/src/test/content-tools.ts',
      line: 32,
      column: 15,
      code: 'TS2352',
    });
    expect(errors[0]?.message).toContain('missing the following properties');
    expect(errors[1]).toMatchObject({ file: 'packages/host/src/a.ts', line: 3, code: 'TS2305' });
  });

  it('names the Pi symbols the file imports or Pi exports, else the Pi module', () => {
    const source =
      "import type { ExtensionContext, ToolDefinition as Tool } from '@earendil-works/pi-coding-agent';\nimport { x } from './x.js';";
    const imports = piImportsOf(source);
    expect([...imports]).toEqual(['ExtensionContext', 'ToolDefinition']);
    const exported = piExportsOf(
      'export { type ExtensionToolContext, createEditTool as makeEdit, } from "./a.ts";\nexport declare class SessionManager {}\nexport type { Z } from "./z.ts";',
    );
    expect([...exported]).toEqual(['ExtensionToolContext', 'makeEdit', 'Z', 'SessionManager']);
    const names = new Set([...imports, ...exported]);
    const changed =
      "Argument of type 'ExtensionContext' is not assignable to parameter of type 'ExtensionToolContext'.";
    expect(piSymbolsOf(changed, names)).toEqual(['ExtensionContext', 'ExtensionToolContext']);
    const [first, second] = parseTscErrors(output);
    expect(piSymbolsOf(first?.message ?? '', names)).toEqual(['ExtensionContext']);
    expect(piSymbolsOf(second?.message ?? '', new Set())).toEqual([
      '@earendil-works/pi-coding-agent',
    ]);
    expect(piSymbolsOf("Type 'string' is not assignable to type 'number'.", names)).toEqual([]);
  });
});

const seams = [
  { name: 'tool I/O', files: ['packages/content/src/tools/edit-tool.test.ts'] },
  {
    name: 'direct extension requests',
    files: ['packages/host/test/pi.test.ts#direct extension', 'packages/host/test/gone.test.ts'],
  },
];
const reports = [
  {
    testResults: [
      {
        name: '/tmp/p/packages/content/src/tools/edit-tool.test.ts',
        status: 'failed',
        assertionResults: [
          { fullName: 'edit tool saving keeps mixed endings', status: 'passed' },
          {
            fullName: 'edit tool line endings keeps each line',
            status: 'failed',
            failureMessages: ['\u001b[31mAssertionError: expected a to be b\u001b[39m\n  at x'],
          },
          { fullName: 'adapter sentinel: edit line-ending restoration', status: 'failed' },
        ],
      },
    ],
  },
  {
    testResults: [
      {
        name: '/tmp/p/packages/host/test/pi.test.ts',
        status: 'passed',
        assertionResults: [
          { fullName: 'host direct extension model calls are not routed', status: 'passed' },
          { fullName: 'host other thing', status: 'failed', failureMessages: ['boom'] },
        ],
      },
    ],
  },
];

describe('seam suites', () => {
  it('groups seam files by package', () => {
    expect(seamRuns(seams)).toEqual([
      { dir: 'packages/content', files: ['src/tools/edit-tool.test.ts'] },
      { dir: 'packages/host', files: ['test/pi.test.ts', 'test/gone.test.ts'] },
    ]);
  });

  it('fails a suite on its failing tests and missing files, ignoring sentinels and other tests', () => {
    expect(suiteOutcomes(seams, reports)).toEqual([
      {
        suite: 'tool I/O',
        status: 'fail',
        failures: [
          {
            test: 'edit tool line endings keeps each line',
            message: 'AssertionError: expected a to be b',
          },
        ],
      },
      {
        suite: 'direct extension requests',
        status: 'fail',
        failures: [{ test: 'packages/host/test/gone.test.ts', message: 'did not run' }],
      },
    ]);
  });

  it('reports a file that failed to load, and a filter that matches nothing', () => {
    const outcomes = suiteOutcomes(
      [{ name: 's', files: ['a/b/x.test.ts', 'a/b/y.test.ts#nothing'] }],
      [
        {
          testResults: [
            {
              name: '/r/a/b/x.test.ts',
              status: 'failed',
              message: 'SyntaxError: no',
              assertionResults: [],
            },
            {
              name: '/r/a/b/y.test.ts',
              status: 'passed',
              assertionResults: [{ fullName: 'y', status: 'passed' }],
            },
          ],
        },
      ],
    );
    expect(outcomes[0]?.failures).toEqual([
      { test: 'a/b/x.test.ts', message: 'SyntaxError: no' },
      { test: 'a/b/y.test.ts#nothing', message: 'no test matched' },
    ]);
  });

  it('judges a file of sentinels only by the adapter rows', () => {
    const sentinels = {
      name: '/r/a/b/s.test.ts',
      status: 'failed',
      assertionResults: [{ fullName: 'adapter sentinel: x', status: 'failed' }],
    };
    expect(
      suiteOutcomes([{ name: 's', files: ['a/b/s.test.ts'] }], [{ testResults: [sentinels] }]),
    ).toEqual([{ suite: 's', status: 'pass', failures: [] }]);
  });

  it('calls a failing test a regression unless it also failed at the baseline', () => {
    const fail = (...tests: string[]) => tests.map((test) => ({ test, message: `${test} broke` }));
    const probed = [
      { suite: 'a', status: 'pass', failures: [] },
      { suite: 'b', status: 'fail', failures: fail('b1') },
      { suite: 'c', status: 'fail', failures: fail('c1') },
      { suite: 'd', status: 'fail', failures: fail('d1', 'd2') },
    ];
    const baseline = [
      { suite: 'b', status: 'pass', failures: [] },
      { suite: 'c', status: 'fail', failures: fail('c1') },
      { suite: 'd', status: 'fail', failures: fail('d1') },
    ];
    const verdicts = suiteVerdicts(probed, baseline);
    expect(verdicts.map((s) => s.verdict)).toEqual([
      'pass',
      'regression',
      'already failing',
      'regression',
    ]);
    expect(verdicts[3]?.failures).toEqual(fail('d2'));
    expect(suiteVerdicts(probed, undefined).map((s) => s.verdict)).toEqual([
      'pass',
      'regression',
      'regression',
      'regression',
    ]);
  });
});

describe('adapters, exit code and table', () => {
  const adapters = adapterVerdicts(
    ['edit line-ending restoration', 'projection proxy', 'content tools'],
    [
      { adapter: 'edit line-ending restoration', verdict: 'RETIRE', detail: 'Pi keeps endings' },
      { adapter: 'projection proxy', verdict: 'CHANGED', detail: 'method gone' },
      { adapter: 'content tools', verdict: 'MAYBE' },
    ],
  );

  it('takes each recorded verdict, UNKNOWN when none or an invalid one was recorded', () => {
    expect(adapters.map((a) => a.verdict)).toEqual(['RETIRE', 'CHANGED', 'UNKNOWN']);
  });

  it('exits 1 on a failed step, a type error, a regression or a CHANGED adapter', () => {
    const clean = { version: '1', against: '0', steps: [{ name: 'install', status: 'pass' }] };
    expect(exitCode(clean)).toBe(0);
    expect(exitCode({ ...clean, adapters: [adapters[0]] })).toBe(0);
    expect(exitCode({ ...clean, adapters: [adapters[1]] })).toBe(1);
    expect(exitCode({ ...clean, steps: [{ name: 'install', status: 'fail' }] })).toBe(1);
    expect(exitCode({ ...clean, typeErrors: [{ file: 'a', line: 1 }] })).toBe(1);
    expect(exitCode({ ...clean, suites: [{ suite: 'a', verdict: 'already failing' }] })).toBe(0);
    expect(exitCode({ ...clean, suites: [{ suite: 'a', verdict: 'regression' }] })).toBe(1);
  });

  it('prints one row per step, type error, suite and adapter with its cause', () => {
    const table = formatTable({
      version: '1.6.0',
      against: '0.87.1',
      steps: [{ name: 'install', status: 'pass', detail: 'Pi 1.6.0' }],
      typeErrors: [
        {
          file: 'src/t.ts',
          line: 32,
          code: 'TS2352',
          symbols: ['ExtensionContext', 'ExtensionToolContext'],
          message: 'bad',
        },
      ],
      suites: [
        {
          suite: 'tool I/O',
          verdict: 'regression',
          failures: [{ test: 'edit keeps endings', message: 'expected a' }],
        },
      ],
      adapters: [adapters[0]],
      seconds: 290,
    });
    const lines = table.split('\n');
    expect(lines[0]).toBe('Pi 1.6.0 against 0.87.1');
    expect(lines.find((l) => l.startsWith('install'))).toMatch(/PASS\s+Pi 1\.6\.0$/u);
    expect(lines.find((l) => l.startsWith('type error'))).toContain(
      'src/t.ts:32 TS2352 [Pi: ExtensionContext, ExtensionToolContext] bad',
    );
    expect(lines.find((l) => l.startsWith('seam: tool I/O'))).toMatch(
      /REGRESSION\s+edit keeps endings: expected a$/u,
    );
    expect(lines.find((l) => l.startsWith('adapter: edit'))).toMatch(/RETIRE\s+Pi keeps endings$/u);
    expect(lines.at(-2)).toMatch(/^verdict: NOT SAFE/u);
    expect(lines.at(-1)).toBe('time: 290 s');
  });
});
