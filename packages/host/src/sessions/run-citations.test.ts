import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentStore } from '@repa/content';
import type { Citation, HistoryItem } from '@repa/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { withCitations } from './run-citations.js';

describe('withCitations', () => {
  it('reads each cited document once for all the answers it shows, and marks an edited one', async () => {
    const root = mkdtempSync(join(tmpdir(), 'repa-citations-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, 'tides.md'), 'Tides follow the moon.\n');
    writeFileSync(join(root, 'waves.md'), 'Waves follow the wind.\n');
    const store = await ContentStore.open({ root });
    // The real store, its reads counted on the way through.
    const reads: string[] = [];
    const counted = new Proxy(store, {
      get(target, property) {
        if (property === 'read') {
          return (address: string) => {
            reads.push(address);
            return target.read(address);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const cite = async (target: string): Promise<Citation> => {
      const { identity, version } = await store.read(target);
      return {
        index: 1,
        text: `[${target}:1]`,
        offset: 0,
        document: target,
        target,
        identity,
        version,
        startLine: 1,
        endLine: 1,
        status: 'verified',
      };
    };
    const tides = await cite('tides.md');
    const waves = await cite('waves.md');
    writeFileSync(join(root, 'waves.md'), 'Waves follow the wind and the tide.\n');
    const answers = ['a1', 'a2', 'a3', 'a4'].map(
      (entryId): HistoryItem => ({
        entryId,
        kind: 'assistant',
        timestamp: '2026-12-05T10:00:00Z',
        text: 'answer',
      }),
    );
    const shown = await withCitations(
      async () => counted,
      answers,
      new Map([
        ['a1', [tides]],
        ['a2', [tides, waves]],
        ['a3', [waves]],
        ['a4', [tides]],
      ]),
    );
    expect(reads.sort()).toEqual([tides.identity, waves.identity].sort());
    expect(shown.map((item) => item.citations?.map((citation) => citation.changedSince))).toEqual([
      [undefined],
      [undefined, true],
      [true],
      [undefined],
    ]);
  });
});
