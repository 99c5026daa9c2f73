// One consumer project per folder of examples/: copied outside the workspace, its `@repa/*`
// dependencies set to the versions just published, installed from the local registry, checked
// for the copies of Pi it holds, type-checked by tsc (module node16, then bundler) and run.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { run } from './publish.mjs';

/**
 * What each example needs besides installing and type-checking: `pi` is `none` (no Pi package in
 * its tree at all) or `one` (exactly one copy of each Pi package and of typebox); `browser` bundles
 * it for a browser with esbuild and runs the bundle where no Node global exists; `zodFloor` installs
 * the lowest zod of the catalog's range (`^4.1.0` → 4.1.0), so the range is one the packages work on.
 */
export const CONSUMERS = {
  settings: { pi: 'none', zodFloor: true },
  prompt: { pi: 'none', zodFloor: true },
  protocol: { pi: 'none', browser: true, zodFloor: true },
  context: { pi: 'one' },
  content: { pi: 'one' },
  host: { pi: 'one' },
  application: { pi: 'one' },
};

const PI_PACKAGES = [
  '@earendil-works/pi-ai',
  '@earendil-works/pi-agent-core',
  '@earendil-works/pi-coding-agent',
  'typebox',
];

/** The workspace catalog of pnpm-workspace.yaml: package name → version. */
function catalog(root) {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const section = /^catalog:\r?\n((?:[ \t]+.*\r?\n?)*)/m.exec(text)?.[1] ?? '';
  return Object.fromEntries(
    [...section.matchAll(/^\s+["']?([^"':\s]+)["']?:\s*["']?([^"'\s]+)/gm)].map((m) => [
      m[1],
      m[2],
    ]),
  );
}

/** Fails when an example names a catalog package at another version than the workspace's. */
function checkCatalogVersions(root, name, manifest) {
  const versions = catalog(root);
  const all = { ...manifest.dependencies, ...manifest.devDependencies };
  for (const [dependency, range] of Object.entries(all)) {
    if (versions[dependency] !== undefined && versions[dependency] !== range) {
      throw new Error(
        `examples/${name}/package.json: ${dependency} is ${range}; the workspace catalog has ${versions[dependency]}`,
      );
    }
  }
}

/** The examples' folder names. */
export function exampleNames(root) {
  return readdirSync(join(root, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Every folder under `dir`'s node_modules (at any depth) holding a package named `name`. */
function copiesOf(dir, name) {
  const found = [];
  const walk = (modules) => {
    if (!existsSync(modules)) return;
    if (existsSync(join(modules, name, 'package.json'))) found.push(join(modules, name));
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const scoped = entry.name.startsWith('@')
        ? readdirSync(join(modules, entry.name)).map((inner) => join(modules, entry.name, inner))
        : [join(modules, entry.name)];
      for (const pkg of scoped) walk(join(pkg, 'node_modules'));
    }
  };
  walk(join(dir, 'node_modules'));
  return found;
}

/** Fails unless the consumer holds no Pi at all (`none`) or one copy of each Pi package (`one`). */
function checkPiCopies(folder, expected, say) {
  for (const name of PI_PACKAGES) {
    const copies = copiesOf(folder, name);
    const want = expected === 'none' ? 0 : 1;
    if (copies.length !== want) {
      throw new Error(
        `${copies.length} copies of ${name} installed (want ${want}):\n  ${copies.join('\n  ')}`,
      );
    }
  }
  say(expected === 'none' ? 'no Pi installed' : 'one copy of Pi and typebox');
}

/** The example's bundle for a browser (its `npm run build`), run in a context with no Node global. */
async function runInPage(folder, env) {
  await run('npm', ['run', 'build', '--silent'], { cwd: folder, env });
  const bundle = join(folder, 'dist', 'page.js');
  // The page logs its lines and ends with the line `done`; anything it logs as an error fails it.
  const lines = [];
  let settle;
  const page = {
    console: {
      log: (...args) => {
        lines.push(args.join(' '));
        if (args[0] === 'done') settle();
      },
      error: (...args) => settle(new Error(args.join(' '))),
    },
    setTimeout,
    clearTimeout,
    queueMicrotask,
    URL,
  };
  return new Promise((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve(lines.join('\n')));
    for (const name of ['process', 'Buffer', 'require']) {
      if (runInNewContext(`typeof ${name}`, page) !== 'undefined')
        reject(new Error(`${name} exists`));
    }
    runInNewContext(readFileSync(bundle, 'utf8'), page, { filename: bundle });
    setTimeout(() => reject(new Error('the page never logged done')), 30_000).unref();
  });
}

/**
 * `tsc --noEmit` of the example with module `node16` or `bundler`, every declaration file checked
 * (`--skipLibCheck false`): an error in the example or in a `@repa/*` package fails it; errors
 * inside other packages' declarations (Pi's need the DOM library and JSON modules) are counted.
 */
async function typeCheck(folder, module, env, say) {
  const tsc = join(folder, 'node_modules', 'typescript', 'bin', 'tsc');
  const options =
    module === 'node16'
      ? ['--module', 'node16', '--moduleResolution', 'node16']
      : ['--module', 'preserve', '--moduleResolution', 'bundler'];
  const args = [
    tsc,
    '-p',
    'tsconfig.json',
    '--noEmit',
    '--pretty',
    'false',
    '--skipLibCheck',
    'false',
  ];
  const result = await run(process.execPath, [...args, ...options], {
    cwd: folder,
    env,
    check: false,
  });
  const errors = result.output.split('\n').filter((line) => /error TS\d+/.test(line));
  const foreign = errors.filter((line) => /^node_modules\/(?!@repa\/)/.test(line));
  const ours = errors.filter((line) => !foreign.includes(line));
  if (ours.length > 0 || (result.status !== 0 && errors.length === 0)) {
    throw new Error(
      `tsc (module ${module}):\n${(ours.join('\n') || result.output).slice(0, 6000)}`,
    );
  }
  const ignored =
    foreign.length > 0 ? ` (${foreign.length} errors in other packages' declarations)` : '';
  say(`tsc module ${module}: ok${ignored}`);
}

/** Installs, checks and runs one example against the packages published at `versions`; `say` logs a line. */
export async function checkConsumer({ root, name, folder, versions, env, say }) {
  const spec = CONSUMERS[name];
  cpSync(join(root, 'examples', name), folder, {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|dist)$/.test(source),
  });
  const manifestPath = join(folder, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  checkCatalogVersions(root, name, manifest);
  if (spec.zodFloor) {
    const floor = /^[\^~]?(\d+\.\d+\.\d+)$/.exec(catalog(root).zod ?? '')?.[1];
    if (!floor) throw new Error('the catalog names no zod range with a lowest version');
    manifest.overrides = { ...manifest.overrides, zod: floor };
  }
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    if (dependency.startsWith('@repa/')) {
      if (!versions[dependency]) throw new Error(`${dependency} was not published`);
      manifest.dependencies[dependency] = versions[dependency];
    }
  }
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: folder,
    env,
  });
  checkPiCopies(folder, spec.pi, say);
  if (spec.zodFloor) {
    const { version } = JSON.parse(
      readFileSync(join(folder, 'node_modules/zod/package.json'), 'utf8'),
    );
    say(`zod ${version} (the lowest of the catalog's range)`);
  }
  for (const module of ['node16', 'bundler']) await typeCheck(folder, module, env, say);
  const output = spec.browser
    ? await runInPage(folder, env)
    : await run(process.execPath, ['index.ts'], { cwd: folder, env, timeout: 180_000 });
  for (const line of output.trimEnd().split('\n')) say(`| ${line}`);
}
