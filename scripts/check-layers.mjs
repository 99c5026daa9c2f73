#!/usr/bin/env node
// Layering check: packages may only import along the graph
//   apps → application → host → {settings, prompt, context, content} → protocol
// with durable-fs (crash-safe file writes) below settings, context, content and host, above protocol.
// (application may also read settings directly, to resolve a run's settings before acceptance).
// Siblings never import each other; only host, context and content may import Pi; settings and prompt
// are Pi-free. Both source imports (parsed by TypeScript's own pre-processor) and package.json
// dependencies are checked. Usage: `node scripts/check-layers.mjs [root]`; exit 1 on any violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const PI = [
  '@earendil-works/pi-ai',
  '@earendil-works/pi-coding-agent',
  '@earendil-works/pi-agent-core',
];

/** Which workspace packages each package may import, and whether it may import Pi. */
export const LAYERS = {
  '@repa/protocol': { allow: [], pi: false },
  '@repa/durable-fs': { allow: ['@repa/protocol'], pi: false },
  '@repa/settings': { allow: ['@repa/protocol', '@repa/durable-fs'], pi: false },
  '@repa/prompt': { allow: ['@repa/protocol'], pi: false },
  '@repa/context': { allow: ['@repa/protocol', '@repa/durable-fs'], pi: true },
  '@repa/content': { allow: ['@repa/protocol', '@repa/durable-fs'], pi: true },
  '@repa/host': {
    allow: [
      '@repa/protocol',
      '@repa/durable-fs',
      '@repa/settings',
      '@repa/prompt',
      '@repa/context',
      '@repa/content',
    ],
    pi: true,
  },
  '@repa/application': {
    allow: ['@repa/protocol', '@repa/settings', '@repa/host'],
    pi: false,
  },
  '@repa/cli': { allow: ['@repa/protocol', '@repa/application', '@repa/daemon'], pi: false },
  '@repa/daemon': { allow: ['@repa/protocol', '@repa/application'], pi: false },
  '@repa/fixtures': { allow: [], pi: false },
  // The benchmarks measure every layer against bare Pi (npm run bench).
  '@repa/bench': {
    allow: [
      '@repa/protocol',
      '@repa/settings',
      '@repa/prompt',
      '@repa/context',
      '@repa/content',
      '@repa/host',
      '@repa/application',
    ],
    pi: true,
  },
};

const TEST_FILE = /(\.test\.ts|\.test-d\.ts|\.bench\.ts)$|[\\/](test|testing-fixtures)[\\/]/;

function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) {
    return null;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

function workspacePackages(root) {
  const dirs = [];
  for (const group of ['packages', 'apps']) {
    const base = join(root, group);
    let names = [];
    try {
      names = readdirSync(base);
    } catch {
      continue;
    }
    for (const name of names) dirs.push(join(base, name));
  }
  dirs.push(join(root, 'fixtures'), join(root, 'bench'));
  return dirs.filter((dir) => {
    try {
      return statSync(join(dir, 'package.json')).isFile();
    } catch {
      return false;
    }
  });
}

/** Every violation of the layering rules under `root`, as human-readable lines. */
export function checkLayers(root) {
  const violations = [];
  for (const dir of workspacePackages(root)) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const name = manifest.name;
    const where = relative(root, dir);
    const rule = LAYERS[name];
    if (!rule) {
      violations.push(
        `${where}: package ${name} has no entry in the layer table (scripts/check-layers.mjs)`,
      );
      continue;
    }
    const allowed = (pkg, isTest) =>
      pkg === name ||
      !pkg.startsWith('@repa/') ||
      rule.allow.includes(pkg) ||
      (isTest && pkg === '@repa/fixtures');
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      if (!allowed(dep, false))
        violations.push(`${where}/package.json: ${name} must not depend on ${dep}`);
      if (PI.includes(dep) && !rule.pi)
        violations.push(`${where}/package.json: ${name} must not depend on Pi (${dep})`);
    }
    for (const dep of Object.keys(manifest.devDependencies ?? {})) {
      if (!allowed(dep, true))
        violations.push(`${where}/package.json: ${name} must not depend on ${dep}`);
    }
    for (const file of sourceFiles(dir)) {
      if (file.endsWith('.config.ts')) continue;
      const isTest = TEST_FILE.test(relative(dir, file));
      const text = readFileSync(file, 'utf8');
      const { importedFiles } = ts.preProcessFile(text, true, true);
      for (const { fileName: specifier } of importedFiles) {
        const at = `${relative(root, file)}: imports '${specifier}'`;
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          if (target !== dir && !target.startsWith(dir + sep)) {
            violations.push(`${at}, which reaches outside ${name}`);
          }
          continue;
        }
        const pkg = packageOf(specifier);
        if (!pkg) continue;
        if (!allowed(pkg, isTest))
          violations.push(
            `${at}; ${name} may import only ${rule.allow.join(', ') || 'no workspace package'}`,
          );
        if (PI.includes(pkg) && !rule.pi) violations.push(`${at}; ${name} must stay Pi-free`);
      }
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkLayers(root);
  if (violations.length > 0) {
    console.error(`Layering check failed (${violations.length}):`);
    for (const line of violations) console.error(`  ${line}`);
    console.error(
      'Fix: import only along apps → host → {settings, prompt, context, content} → durable-fs → protocol.',
    );
    process.exit(1);
  }
  console.log('Layering check passed.');
}
