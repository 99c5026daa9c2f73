import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repa, repaJson, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';

// Diffs of saves and rewinds of runs through the built CLI and a real daemon on the offline
// model: real files, Pi's real session file.
const sandbox = useDaemon({ model: 'repa-offline' });

interface RewindFile {
  target: string;
  status: string;
  error?: { code: string; details?: Record<string, unknown> };
}
interface Rewind {
  rewindId: string;
  files: RewindFile[];
  conversation?: { leafId: string | null };
}

/** The visible files of the space (no `.repa/`), as text. */
function tree(root = sandbox.space): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (path === '.repa') continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), path);
      else files[path] = readFileSync(join(dir, entry.name), 'utf8');
    }
  };
  walk(root, '');
  return files;
}

/** Runs `text` in the space's session; the run's id. */
async function run(text: string): Promise<{ runId: string; stdout: string }> {
  const result = await repa(sandbox, ['run', text]);
  expect(result.code, result.stderr).toBe(0);
  const runId = /\[succeeded\] run (\S+)/.exec(result.stdout)?.[1];
  expect(runId, result.stdout).toBeDefined();
  return { runId: runId as string, stdout: result.stdout };
}

const PATCH = [
  'Apply this patch:',
  '*** Begin Patch',
  '*** Update File: notes/plan.md',
  '@@',
  '-- Read the chapter weekly.',
  '+- Read the chapter twice a week.',
  '*** Update File: notes/a.md',
  '*** Move to: archive/tides.md',
  '@@',
  '-The tide turns every six hours.',
  '+The tide turns about every six hours.',
  '*** Add File: notes/new.md',
  '+# New',
  '*** End Patch',
].join('\n');

describe('diffs and rewinds of runs', () => {
  it('shows each save’s change under [saved] and the run’s unified diff; without a run id, runs show, diff and rewind (with --yes off a terminal) take the most recent run', async () => {
    const { runId, stdout } = await run(
      'replace "Spring tides follow the full moon." with "Spring tides follow the full and new moon." in notes/a.md',
    );
    expect(stdout).toMatch(
      /\[saved\] notes\/a\.md .*\n {8}\+1 −1\n {8}-Spring tides follow the full moon\.\n {8}\+Spring tides follow the full and new moon\.\n/,
    );
    const diff = await repa(sandbox, ['runs', 'diff', runId.slice(0, 8)]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toBe(
      [
        '--- notes/a.md',
        '+++ notes/a.md',
        '@@ -1,4 +1,4 @@',
        ' # Tides',
        ' ',
        ' The tide turns every six hours.',
        '-Spring tides follow the full moon.',
        '+Spring tides follow the full and new moon.',
        '',
      ].join('\n'),
    );
    // Without a run id: the space's most recent run, named on stderr.
    const latest = await repa(sandbox, ['runs', 'diff']);
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toBe(diff.stdout);
    expect(latest.stderr).toContain(
      `repa: the most recent run in ${sandbox.space}: ${runId} “replace`,
    );
    const shown = await repa(sandbox, ['runs', 'show']);
    expect(shown.stdout).toMatch(new RegExp(`^run +${runId}$`, 'm'));
    // A rewind nobody can confirm needs --yes when the run is not named.
    const unasked = await repa(sandbox, ['runs', 'rewind']);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('a rewind of the most recent run needs --yes');
    expect(tree()['notes/a.md']).toContain('full and new moon');
    // Put the note back for the next test, through a rewind of this run (the most recent one).
    const back = await repa(sandbox, ['runs', 'rewind', '--yes']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain(`the most recent run in ${sandbox.space}: ${runId}`);
    expect(back.stdout).toContain(`Rewound ${runId}:\n  [done] restore notes/a.md`);
    expect(back.stdout).toContain('The model is told at its next request: notes/a.md was rewound.');
    expect(tree()['notes/a.md']).toContain('Spring tides follow the full moon.');
  });

  it('rewinds an update, a move and a new file byte for byte, refuses a file edited since with stale_version, and a rewind of the rewind restores the run’s result', async () => {
    const before = tree();
    const { runId } = await run(PATCH);
    const after = tree();
    expect(after['archive/tides.md']).toContain('about every six hours');
    const byHand = '# Plan\n\n- Read the chapter on Mondays.\n';
    writeFileSync(join(sandbox.space, 'notes/plan.md'), byHand);

    const rewound = await repaJson<{ rewind: Rewind }>(sandbox, ['runs', 'rewind', runId]);
    expect(rewound.code).toBe(1);
    const byTarget = Object.fromEntries(rewound.json.rewind.files.map((f) => [f.target, f]));
    expect(byTarget['notes/plan.md']).toMatchObject({
      status: 'refused',
      error: { code: 'stale_version', details: { target: 'notes/plan.md' } },
    });
    expect(byTarget['notes/a.md']?.status).toBe('restored');
    expect(byTarget['notes/new.md']?.status).toBe('restored');
    expect(tree()).toEqual({ ...before, 'notes/plan.md': byHand });

    const again = await repaJson<{ rewind: Rewind }>(sandbox, [
      'runs',
      'rewind',
      rewound.json.rewind.rewindId,
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(tree()).toEqual({ ...after, 'notes/plan.md': byHand });
    // Back to the notes as they were, for the next test.
    writeFiles(sandbox.space, { 'notes/plan.md': before['notes/plan.md'] as string });
    const undo = await repaJson<{ rewind: Rewind }>(sandbox, ['runs', 'rewind', runId]);
    expect(undo.json.rewind.files.every((file) => file.status !== 'refused')).toBe(true);
    expect(tree()).toEqual(before);
  });

  it('marks a rewound run in runs list and its record until the rewind is undone', async () => {
    const { runId } = await run(PATCH);
    /** The runs list row of the run, and its record's mark. */
    const listed = async () => {
      const list = await repa(sandbox, ['runs', 'list']);
      const row = list.stdout.split('\n').find((line) => line.startsWith(runId));
      const shown = await repaJson<{ run: { rewound?: { rewindId: string } } }>(sandbox, [
        'runs',
        'show',
        runId,
      ]);
      return { row, rewound: shown.json.run.rewound };
    };
    expect((await listed()).row).toMatch(/^\S+ +succeeded +\S/);
    const rewound = await repaJson<{ rewind: Rewind }>(sandbox, ['runs', 'rewind', runId]);
    expect(rewound.code, rewound.stderr).toBe(0);
    const marked = await listed();
    expect(marked.row).toMatch(/^\S+ +succeeded \(rewound\) +\S/);
    expect(marked.rewound?.rewindId).toBe(rewound.json.rewind.rewindId);
    const undone = await repa(sandbox, ['runs', 'rewind', rewound.json.rewind.rewindId]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await listed()).toEqual({
      row: expect.stringMatching(/^\S+ +succeeded +\S/),
      rewound: undefined,
    });
    // Back to the notes as they were, for the next test.
    expect((await repa(sandbox, ['runs', 'rewind', runId])).code).toBe(0);
  });

  it('with --conversation, the session continues from before the run and Pi’s file keeps both branches', async () => {
    await run('What does notes/plan.md say?');
    const { runId } = await run(
      'replace "Read the chapter weekly." with "Read the chapter daily." in notes/plan.md',
    );
    const preview = await repa(sandbox, ['runs', 'rewind', runId, '--conversation', '--preview']);
    expect(preview.stdout).toContain('[will] restore notes/plan.md');
    expect(preview.stdout).toContain('[will] move the conversation back to before the run');
    expect(tree()['notes/plan.md']).toContain('daily');
    const rewound = await repaJson<{ rewind: Rewind }>(sandbox, [
      'runs',
      'rewind',
      runId,
      '--conversation',
    ]);
    expect(rewound.json.rewind.conversation?.leafId).toEqual(expect.any(String));
    expect(tree()['notes/plan.md']).toContain('weekly');
    const history = await repaJson<{ items: { kind: string; text: string }[] }>(sandbox, [
      'sessions',
      'show',
    ]);
    const texts = history.json.items.map((item) => item.text);
    expect(texts.some((text) => text.includes('Read the chapter daily'))).toBe(false);
    expect(texts.some((text) => text.includes('What does notes/plan.md say?'))).toBe(true);
    expect(texts.at(-1)).toContain('The learner rewound the changes of an earlier request');
    // The session file keeps the rewound run: its request is still in the JSONL.
    const dir = join(sandbox.space, '.repa/sessions');
    const file = readdirSync(dir, { recursive: true }).find((name) =>
      String(name).endsWith('.jsonl'),
    );
    const lines = readFileSync(join(dir, String(file)), 'utf8')
      .trim()
      .split('\n');
    const entries = lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
    const marker = entries.find(
      (entry) =>
        entry.customType === 'repa.run' && (entry.data as { runId?: string }).runId === runId,
    );
    expect(entries.filter((entry) => entry.parentId === marker?.id)).toHaveLength(2);
    expect(lines.some((line) => line.includes('Read the chapter daily.'))).toBe(true);
  });

  it('says not_found with a fix when the space named has no runs yet', async () => {
    const empty = join(sandbox.root, 'no-runs');
    mkdirSync(empty);
    const result = await repa(sandbox, ['runs', 'diff', '--space', empty]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Space ${empty} has no runs yet. (not_found)`);
    expect(result.stderr).toContain('Fix: Start one with repa run');
  });

  it('says history_evicted when the limits evicted the bytes a rewind needs, and leaves the file', async () => {
    const set = await repa(sandbox, [
      'settings',
      'set',
      'history.maxMegabytes',
      '0',
      '--level',
      'space',
    ]);
    expect(set.code, set.stderr).toBe(0);
    const { runId } = await run(
      'replace "The tide turns every six hours." with "Tides turn twice a day." in notes/a.md',
    );
    const rewound = await repaJson<{ rewind: Rewind }>(sandbox, ['runs', 'rewind', runId]);
    expect(rewound.json.rewind.files).toMatchObject([
      { target: 'notes/a.md', status: 'refused', error: { code: 'history_evicted' } },
    ]);
    expect(tree()['notes/a.md']).toContain('Tides turn twice a day.');
    const human = await repa(sandbox, ['runs', 'rewind', runId]);
    expect(human.stdout).toContain('are no longer kept in .repa/history. (history_evicted)');
  });
});
