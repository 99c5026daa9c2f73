import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runChildren } from './test/run-child.js';
import { makeTempSpace } from './test/temp-space.js';
import { numberedRegistry } from './test/test-registry.js';

const PER_PROCESS = 200;
/** A safety limit for a stuck child, not a timing goal. */
const LIMIT = { timeout: 120_000 };

beforeAll(() => {
  assertBuilt();
});

describe('SettingsStore', () => {
  describe('two processes writing one file', () => {
    it('keeps all 400 items when each process sets 200 different items', LIMIT, async () => {
      const t = await makeTempSpace();
      const total = 2 * PER_PROCESS;
      const base = { kind: 'items', appDirectory: t.appDirectory, itemCount: total };
      const [first, second] = await runChildren([
        { ...base, writer: 'A', from: 0, to: PER_PROCESS },
        { ...base, writer: 'B', from: PER_PROCESS, to: total },
      ]);
      expect([...(first ?? []), ...(second ?? [])].filter((o) => !o.ok)).toEqual([]);

      const items = await t.store(numberedRegistry(total)).get();
      const numbered = items.filter((item) => item.key.startsWith('test.item'));
      expect(numbered).toHaveLength(total);
      for (const item of numbered) {
        const index = Number(item.key.slice('test.item'.length));
        expect(item.value).toBe(`${index < PER_PROCESS ? 'A' : 'B'}:${index}`);
        expect(item.source).toBe('application');
      }
      // Every write got its own counter value: the revisions are exactly 1…400.
      const revisions = numbered.map((item) => item.revisions.application).sort((a, b) => a - b);
      expect(revisions).toEqual(Array.from({ length: total }, (_, index) => index + 1));
      expect(await t.readJson(t.appFile)).toMatchObject({ version: 1, revision: total });
      expect(await t.siblings(t.appFile)).toEqual(['repa-settings.json']);
    });

    it('keeps all 400 session scopes when each process writes 200 sessions', LIMIT, async () => {
      const t = await makeTempSpace();
      const total = 2 * PER_PROCESS;
      const base = { kind: 'sessions', appDirectory: t.appDirectory, space: t.space };
      const outcomes = await runChildren([
        { ...base, writer: 'A', from: 0, to: PER_PROCESS },
        { ...base, writer: 'B', from: PER_PROCESS, to: total },
      ]);
      expect(outcomes.flat().filter((o) => !o.ok)).toEqual([]);

      const store = t.store();
      for (let index = 0; index < total; index += 1) {
        const run = await store.resolveForRun(t.space, `session-${index}`);
        expect(run.promptSettings.append).toBe(`${index < PER_PROCESS ? 'A' : 'B'}:${index}`);
        expect(run.sources.append).toBe('session');
        expect(run.revisions).toEqual({ application: 0, space: 0, session: 1 });
      }
      const file = (await t.readJson(t.spaceFile)) as { sessions: Record<string, unknown> };
      expect(Object.keys(file.sessions)).toHaveLength(total);
      expect(await t.siblings(t.spaceFile)).toEqual(['.gitignore', 'settings.json']);
    });
  });

  describe('expectedRevision across processes', () => {
    it('lets exactly one of two processes win a write expecting revision 0', LIMIT, async () => {
      const t = await makeTempSpace();
      const job = (value: string) => ({
        kind: 'once',
        appDirectory: t.appDirectory,
        from: 0,
        to: 1,
        input: {
          level: 'space',
          space: t.space,
          key: 'prompts.base',
          value,
          expectedRevision: 0,
        },
      });
      const outcomes = (await runChildren([job('from A'), job('from B')])).flat();
      const winners = outcomes.filter((o) => o.ok);
      const losers = outcomes.filter((o) => !o.ok);
      expect(winners).toHaveLength(1);
      expect(losers).toEqual([
        expect.objectContaining({
          code: 'stale_version',
          details: expect.objectContaining({ currentRevision: 1, expectedRevision: 0 }),
        }),
      ]);
      const [item] = await t.store().get({ space: t.space });
      expect(item).toMatchObject({ key: 'prompts.base', source: 'space', revisions: { space: 1 } });
      expect(['from A', 'from B']).toContain(item?.value);
    });
  });
});
