import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../', import.meta.url).pathname;
/** The files tsup builds as the package's entries (tsup.config.ts). */
const ENTRIES = [
  'index.ts',
  'schemas.ts',
  'internal/index.ts',
  'node/index.ts',
  'testing/index.ts',
];

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

describe('the generated wire types', () => {
  it('are passed on by the entries alone: no other file exports one again', () => {
    const generated = readFileSync(join(SRC, 'v1/wire-types.generated.ts'), 'utf8');
    const wireNames = new Set(
      [...generated.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]),
    );
    const passedOn: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const path = relative(SRC, file);
      if (ENTRIES.includes(path) || path === 'v1/wire-types.generated.ts') continue;
      for (const [, list = ''] of readFileSync(file, 'utf8').matchAll(
        /export\s+(?:type\s+)?\{([^}]*)\}/g,
      )) {
        for (const item of list.split(',')) {
          const name =
            item
              .replace(/^\s*type\s+/, '')
              .split(/\s+as\s+/)[0]
              ?.trim() ?? '';
          if (wireNames.has(name)) passedOn.push(`${path}: ${name}`);
        }
      }
    }
    expect(wireNames.size).toBeGreaterThan(50);
    expect(passedOn).toEqual([]);
  });
});
