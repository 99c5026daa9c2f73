import { existsSync, readdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repaErrorOf } from '@repa/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openTools } from '../test/content-tools.js';
import { readTree, removeAll, tempSpace, writeFiles } from '../test/temp-space.js';

// Codex's portable apply_patch scenarios, read in place from the conformance data beside the
// repository (never copied into it). Not part of `npm test`: run by `npm run conformance`, which
// reads `$REPA_CONFORMANCE_DIR`, by default `<repository>/../shared/conformance`.
const conformanceDir = resolve(
  process.env.REPA_CONFORMANCE_DIR ??
    fileURLToPath(new URL('../../../../../shared/conformance', import.meta.url)),
);
const scenarios = join(conformanceDir, 'codex-apply-patch', 'scenarios');
if (!existsSync(scenarios)) {
  throw new Error(
    `Codex conformance data not found: ${scenarios} does not exist. Put the shared conformance ` +
      'folder beside the repository (../shared/conformance) or set REPA_CONFORMANCE_DIR to it.',
  );
}

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

/** Scenarios Codex itself rejects: Repa must reject them with a code and change nothing. */
const REJECTED: Record<string, string> = {
  '005_rejects_empty_patch': 'patch_invalid',
  '006_rejects_missing_context': 'patch_conflict',
  '007_rejects_missing_file_delete': 'patch_conflict',
  '008_rejects_empty_update_hunk': 'patch_invalid',
  '009_requires_existing_file_for_update': 'patch_conflict',
  '012_delete_directory_fails': 'patch_conflict',
  '013_rejects_invalid_hunk_header': 'patch_invalid',
  // Codex keeps the earlier Add; Repa is all or nothing (NOTICE.md).
  '015_failure_after_partial_success_leaves_changes': 'patch_conflict',
};

async function files(dir: string): Promise<Record<string, Buffer>> {
  return existsSync(dir) ? readTree(dir) : {};
}

async function runScenario(name: string, options: { unobserved?: string }) {
  const scenario = join(scenarios, name);
  const input = await files(join(scenario, 'input'));
  const root = await tempSpace();
  dirs.push(root);
  await writeFiles(root, input);
  const { call, observe } = await openTools(root);
  await observe(...Object.keys(input).filter((path) => path !== options.unobserved));
  const patch = await readFile(join(scenario, 'patch.txt'), 'utf8');
  const outcome = call('apply_patch', { input: patch });
  outcome.catch(() => undefined); // inspected by the test below
  return { root, input, outcome, expected: await files(join(scenario, 'expected')) };
}

describe('apply_patch', () => {
  describe('Codex scenarios', () => {
    it('covers all 23 scenarios', async () => {
      const names = (await readdir(scenarios, { withFileTypes: true })).filter((entry) =>
        entry.isDirectory(),
      );
      expect(names).toHaveLength(23);
    });

    const names = readdirSync(scenarios, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    for (const name of names) {
      it(`${name} produces the expected tree`, async () => {
        const { root, input, outcome, expected } = await runScenario(name, {});
        const rejected = REJECTED[name];
        if (rejected === undefined) {
          await outcome;
          expect(await readTree(root)).toEqual(expected);
        } else {
          expect((await repaErrorOf(outcome)).code).toBe(rejected);
          expect(await readTree(root)).toEqual(input);
        }
      });
    }

    for (const [name, unobserved] of [
      ['010_move_overwrites_existing_destination', 'renamed/dir/name.txt'],
      ['011_add_overwrites_existing_file', 'duplicate.txt'],
    ] as const) {
      it(`${name} needs the overwritten file to have been read`, async () => {
        const { root, input, outcome } = await runScenario(name, { unobserved });
        expect((await repaErrorOf(outcome)).code).toBe('read_required');
        expect(await readTree(root)).toEqual(input);
      });
    }
  });
});
