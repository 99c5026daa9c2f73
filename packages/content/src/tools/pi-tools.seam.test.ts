// Pi seam suite (spec R81): adapter sentinels for the content tools. Each asks the stock Pi tool
// whether the adapter Repa keeps is still needed (KEEP), whether Pi now does the job (RETIRE) or
// whether Pi's behaviour moved so the adapter must change (CHANGED). `npm run pi:probe` reads them.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createEditToolDefinition,
  createWriteToolDefinition,
  type ExtensionContext,
  type ToolDefinition,
} from '@earendil-works/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { editCallPreviewPending } from '../test/render-edit-call.js';
import { readTree, tempSpaces } from '../test/temp-space.js';

type Verdict = 'KEEP' | 'RETIRE' | 'CHANGED';

/** Records a sentinel's verdict for the probe (only when it asks, through its environment). */
async function record(adapter: string, verdict: Verdict, detail: string): Promise<void> {
  const dir = process.env.REPA_PI_PROBE_VERDICTS;
  if (dir)
    await writeFile(join(dir, `${adapter}.json`), JSON.stringify({ adapter, verdict, detail }));
}

const space = tempSpaces();

const run = (tool: ToolDefinition, root: string, params: Record<string, unknown>) =>
  tool.execute('seam', params as never, undefined, undefined, { cwd: root } as ExtensionContext);

describe('Pi seams of the content tools', () => {
  it('adapter sentinel: edit line-ending restoration', async () => {
    const root = await space({ 'f.txt': 'a\r\nb\nc\r\n' });
    await run(createEditToolDefinition(root) as unknown as ToolDefinition, root, {
      path: 'f.txt',
      edits: [{ oldText: 'c', newText: 'C' }],
    });
    const after = (await readFile(join(root, 'f.txt'), 'utf8')).replaceAll('\r', '\\r');
    const [verdict, detail]: [Verdict, string] =
      after === 'a\\r\nb\\r\nC\\r\n'
        ? ['KEEP', "Pi's edit rewrites every line ending to the file's first one"]
        : after === 'a\\r\nb\nC\\r\n'
          ? ['RETIRE', "Pi's edit tool now keeps each untouched line's own ending"]
          : [
              'CHANGED',
              `Pi's edit left ${JSON.stringify(after)} (expected normalised or kept endings)`,
            ];
    await record('edit line-ending restoration', verdict, detail);
    expect(verdict, detail).toBe('KEEP');
  });

  it('adapter sentinel: edit renderCall disk-preview stripping', async () => {
    const root = await space({ 'f.txt': 'a\n' });
    const tool = createEditToolDefinition(root) as unknown as ToolDefinition;
    let verdict: Verdict;
    let detail: string;
    if (tool.renderCall === undefined) {
      [verdict, detail] = ['RETIRE', "Pi's edit tool has no renderCall (nothing to strip)"];
    } else {
      const pending = editCallPreviewPending(tool, root);
      [verdict, detail] =
        pending === true
          ? ['KEEP', "Pi's edit renderCall still starts a disk preview of the file"]
          : pending === false
            ? ['RETIRE', "Pi's edit renderCall no longer starts a disk preview"]
            : [
                'CHANGED',
                "Pi's edit renderCall no longer exposes state.callComponent.previewPending",
              ];
    }
    expect(Object.keys(await readTree(root))).toEqual(['f.txt']);
    await record('edit renderCall disk-preview stripping', verdict, detail);
    expect(verdict, detail).toBe('KEEP');
  });

  it('adapter sentinel: content tools', async () => {
    const root = await space({ 'f.txt': 'never read\n' });
    let verdict: Verdict;
    let detail: string;
    try {
      await run(createWriteToolDefinition(root) as unknown as ToolDefinition, root, {
        path: 'f.txt',
        content: 'overwritten\n',
      });
      const after = await readFile(join(root, 'f.txt'), 'utf8');
      [verdict, detail] =
        after === 'overwritten\n'
          ? ['KEEP', "Pi's write overwrites a file it never read (no versions, receipts or store)"]
          : ['CHANGED', `Pi's write left ${JSON.stringify(after)}`];
    } catch (error) {
      [verdict, detail] = [
        'RETIRE',
        `Pi's write now refuses an unread file (${String(error).slice(0, 80)}); check it covers the store`,
      ];
    }
    await record('content tools', verdict, detail);
    expect(verdict, detail).toBe('KEEP');
  });
});
