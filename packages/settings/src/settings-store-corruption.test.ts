import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import type { SettingsStore } from './settings-store.js';
import { makeTempSpace, type TempSpace } from './test/temp-space.js';

type FileKind = 'application' | 'space';

const encode = (text: string) => (_kind: FileKind) => new TextEncoder().encode(text);

/** A file whose one scope (the application's, or the space's) has `body` as its fields. */
const scoped = (body: string) => (kind: FileKind) =>
  new TextEncoder().encode(
    kind === 'application' ? `{"version":1,${body}}` : `{"version":1,"space":{${body}}}`,
  );

/** Each bad file, with a phrase the `settings_corrupt` problem must contain. */
const CORRUPT_FILES: readonly {
  name: string;
  bytes: (kind: FileKind) => Uint8Array;
  problem: RegExp;
}[] = [
  { name: 'an empty file', bytes: encode(''), problem: /empty/ },
  {
    name: 'a truncated file',
    bytes: encode('{"version": 1, "revision": 2, "items": {"prompts.append": {"value": "hi", "rev'),
    problem: /invalid JSON/,
  },
  { name: 'a lone brace', bytes: encode('{'), problem: /invalid JSON/ },
  { name: 'NUL bytes only', bytes: () => new Uint8Array(64), problem: /NUL byte at offset 0/ },
  {
    name: 'a NUL byte inside JSON',
    bytes: encode('{"version":1,\u0000"items":{}}'),
    problem: /NUL byte at offset 13/,
  },
  {
    name: 'invalid UTF-8',
    bytes: () => Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    problem: /UTF-8/,
  },
  { name: 'a JSON array', bytes: encode('[]'), problem: /not a JSON object/ },
  { name: 'no version', bytes: encode('{"items":{}}'), problem: /\$\["version"\]/ },
  {
    name: 'a newer format version',
    bytes: encode('{"version":2,"items":{}}'),
    problem: /newer Repa/,
  },
  {
    name: 'a wrongly-typed known item',
    bytes: scoped('"revision":1,"items":{"prompts.skillCatalog":{"value":"yes","revision":1}}'),
    problem: /\["items"\]\["prompts\.skillCatalog"\]\["value"\]: .*boolean/,
  },
  {
    name: 'an unknown fileChanges mode',
    bytes: scoped('"revision":1,"items":{"prompts.fileChanges":{"value":"always","revision":1}}'),
    problem: /prompts\.fileChanges/,
  },
  {
    name: 'a revision that is a string',
    bytes: scoped('"revision":1,"items":{"prompts.append":{"value":"x","revision":"1"}}'),
    problem: /\["revision"\]/,
  },
  {
    name: 'an item with neither value nor reset',
    bytes: scoped('"revision":1,"items":{"prompts.append":{"revision":1}}'),
    problem: /exactly one of "value" or "reset"/,
  },
  {
    name: 'items that are a list',
    bytes: scoped('"revision":1,"items":[]'),
    problem: /\["items"\]: /,
  },
  {
    name: 'a top-level __proto__ key',
    bytes: encode('{"version":1,"__proto__":{"polluted":true}}'),
    problem: /forbidden key at \$\["__proto__"\]/,
  },
  {
    name: 'a __proto__ item key',
    bytes: scoped('"items":{"__proto__":{"value":1,"revision":1}}'),
    problem: /forbidden key at .*\["items"\]\["__proto__"\]/,
  },
  {
    name: 'a constructor key inside a value',
    bytes: scoped('"items":{"x.y":{"value":{"constructor":{"prototype":1}},"revision":1}}'),
    problem: /forbidden key at .*\["constructor"\]/,
  },
];

/** Each way of touching a file, all of which must refuse a corrupt one. */
function callsFor(t: TempSpace, store: SettingsStore, level: FileKind) {
  const scope = { space: t.space, sessionId: 's1' };
  const key = 'prompts.append';
  if (level === 'application') {
    return {
      get: () => store.get(),
      set: () => store.set({ level: 'application', key, value: 'new' }),
      reset: () => store.reset({ level: 'application', key }),
      resolveForRun: () => store.resolveForRun(t.space, 's1'),
      // A write to the healthy space file is refused too: its view would need the corrupt file.
      setOther: () => store.set({ level: 'space', ...scope, key, value: 'new' }),
    };
  }
  return {
    get: () => store.get(scope),
    set: () => store.set({ level: 'space', ...scope, key, value: 'new' }),
    reset: () => store.reset({ level: 'session', ...scope, key }),
    resolveForRun: () => store.resolveForRun(t.space, 's1'),
    setSession: () => store.set({ level: 'session', ...scope, key, value: 'new' }),
    setOther: () => store.set({ level: 'application', ...scope, key, value: 'new' }),
  };
}

describe('SettingsStore', () => {
  describe.each([
    { level: 'application' as const, file: (t: TempSpace) => t.appFile },
    { level: 'space' as const, file: (t: TempSpace) => t.spaceFile },
  ])('a corrupt $level file', ({ level, file }) => {
    it.each(CORRUPT_FILES)('reports $name and leaves it byte-identical', async (bad) => {
      const t = await makeTempSpace();
      const path = file(t);
      await mkdir(dirname(path), { recursive: true });
      const bytes = bad.bytes(level);
      await writeFile(path, bytes);
      const siblings = await t.siblings(path);
      const store = t.store();
      for (const [name, call] of Object.entries(callsFor(t, store, level))) {
        let caught: unknown;
        try {
          await call();
        } catch (error) {
          caught = error;
        }
        expect(RepaError.isInstance(caught), `${name} must fail`).toBe(true);
        const error = caught as RepaError;
        expect(error.code, name).toBe('settings_corrupt');
        expect(error.message).toContain(path);
        expect(error.details?.path).toBe(path);
        expect(String(error.details?.problem)).toMatch(bad.problem);
      }
      expect(new Uint8Array(await readFile(path))).toEqual(bytes);
      expect(await t.siblings(path)).toEqual(siblings);
    });
  });

  describe('a corrupt session inside a space file', () => {
    it('refuses writes to any scope of that file', async () => {
      const t = await makeTempSpace();
      const text =
        '{"version":1,"sessions":{"s2":{"revision":1,"items":' +
        '{"prompts.environment":{"value":"on","revision":1}}}}}';
      await mkdir(dirname(t.spaceFile));
      await writeFile(t.spaceFile, text);
      const error = (await t
        .store()
        .set({ level: 'space', space: t.space, key: 'prompts.append', value: 'x' })
        .catch((caught: unknown) => caught)) as RepaError;
      expect(error).toMatchObject({ code: 'settings_corrupt' });
      expect(String(error.details?.problem)).toContain('$["sessions"]["s2"]');
      expect(await readFile(t.spaceFile, 'utf8')).toBe(text);
    });
  });
});
