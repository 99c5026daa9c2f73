import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixturePath } from '@repa/fixtures';
import { repaErrorOf } from '@repa/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openTools } from '../test/content-tools.js';
import { readTree, removeAll, tempSpace, writeFiles } from '../test/temp-space.js';

// Repa's own apply_patch cases (fixtures/patches/README.md): Codex's portable layout (`input/`,
// `patch.txt`, `expected/`) plus `expected-error.json` (`{ "code" }`, the tree stays as `input/`)
// and `case.json` (`{ "unread": [paths] }`, input files the host has not read).
const casesRoot = fixturePath('patches');
const caseNames = readdirSync(casesRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

async function treeOf(dir: string): Promise<Record<string, Buffer>> {
  return existsSync(dir) ? readTree(dir) : {};
}

async function jsonOf<T>(path: string): Promise<T | undefined> {
  return existsSync(path) ? (JSON.parse(await readFile(path, 'utf8')) as T) : undefined;
}

describe('apply_patch', () => {
  describe('the fixture cases', () => {
    it('has cases, each with either expected/ or expected-error.json', () => {
      expect(caseNames.length).toBeGreaterThanOrEqual(30);
      for (const name of caseNames) {
        const dir = join(casesRoot, name);
        expect(existsSync(join(dir, 'patch.txt')), `${name}/patch.txt`).toBe(true);
        expect(
          existsSync(join(dir, 'expected')) !== existsSync(join(dir, 'expected-error.json')),
          `${name}: exactly one of expected/ and expected-error.json`,
        ).toBe(true);
      }
    });

    for (const name of caseNames) {
      it(`${name}`, async () => {
        const dir = join(casesRoot, name);
        const input = await treeOf(join(dir, 'input'));
        const error = await jsonOf<{ code: string }>(join(dir, 'expected-error.json'));
        const unread = (await jsonOf<{ unread?: string[] }>(join(dir, 'case.json')))?.unread ?? [];
        const root = await tempSpace();
        dirs.push(root);
        await writeFiles(root, input);
        const { call, observe } = await openTools(root);
        await observe(...Object.keys(input).filter((path) => !unread.includes(path)));
        const outcome = call('apply_patch', {
          input: await readFile(join(dir, 'patch.txt'), 'utf8'),
        });
        if (error === undefined) {
          await outcome;
          expect(await readTree(root)).toEqual(await treeOf(join(dir, 'expected')));
        } else {
          expect((await repaErrorOf(outcome)).code).toBe(error.code);
          expect(await readTree(root)).toEqual(input);
        }
      });
    }
  });
});
