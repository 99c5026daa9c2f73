import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A package README's example is a program of examples/ (spec R84), which `npm run release:check`
// installs from a registry, type-checks and runs. The README shows it under a marker naming the
// file, `<!-- example: examples/<name>/index.ts -->`, and this test keeps the two equal.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MARKER = /<!-- example: (examples\/[\w-]+\/index\.ts) -->\r?\n```ts\r?\n([\s\S]*?)```/g;

/** Every example a package README shows: `{ readme, file, shown }`. */
function shownExamples() {
  const found: { readme: string; file: string; shown: string }[] = [];
  for (const name of readdirSync(join(root, 'packages'))) {
    const readme = join('packages', name, 'README.md');
    if (!existsSync(join(root, readme))) continue;
    for (const match of readFileSync(join(root, readme), 'utf8').matchAll(MARKER)) {
      found.push({ readme, file: match[1] as string, shown: match[2] as string });
    }
  }
  return found;
}

describe('README examples', () => {
  it('show each example of examples/ exactly as its file holds it', () => {
    const shown = shownExamples();
    for (const { readme, file, shown: text } of shown) {
      expect(existsSync(join(root, file)), `${readme} shows ${file}`).toBe(true);
      expect(text, `${readme} shows ${file}`).toBe(readFileSync(join(root, file), 'utf8'));
    }
    const examples = readdirSync(join(root, 'examples')).map((name) => `examples/${name}/index.ts`);
    expect(shown.map(({ file }) => file).sort()).toEqual(examples.sort());
  });
});
