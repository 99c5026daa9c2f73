import { PassThrough } from 'node:stream';
import type { RunEvent, RunInfo } from '@repa/protocol';
import { runInfo } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { describeReceipt, describeToolArgs, RunPrinter } from './run-printer.js';

const V1 = 'a'.repeat(64);
const V2 = 'b'.repeat(64);

function capture() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { out, text: () => text };
}

function run(overrides: Partial<RunInfo> = {}): RunInfo {
  return runInfo({
    space: '/s',
    input: { type: 'text', text: 'hi' },
    status: 'succeeded',
    settingsRevisions: {},
    acceptedAt: '2026-01-01T00:00:00Z',
    ...overrides,
  });
}

function feed(printer: RunPrinter, events: RunEvent[]): void {
  for (const [index, event] of events.entries()) {
    printer.event({ runId: 'r1', sessionId: 's1', seq: index + 1, event });
  }
}

describe('RunPrinter', () => {
  describe('saves', () => {
    const lines = Array.from({ length: 10 }, (_, index) => `+line ${index + 1}`);
    const events: RunEvent[] = [
      {
        type: 'tool-end',
        toolCallId: 'c1',
        toolName: 'write',
        isError: false,
        receipts: [
          {
            operationId: 'r1-1',
            target: 'n.md',
            identity: 'repa:document/x',
            previousVersion: V1,
            version: V2,
            bytes: 70,
          },
        ],
        diffs: [
          {
            target: 'n.md',
            added: 10,
            removed: 1,
            diff: `--- n.md\n+++ n.md\n@@ -1,1 +1,10 @@\n-old\n${lines.join('\n')}\n`,
          },
        ],
      },
    ];

    it('prints +added −removed and the first 8 changed lines under [saved], then where the rest is', () => {
      const { out, text } = capture();
      feed(new RunPrinter({ out, json: false }), events);
      expect(text().split('\n').slice(1, -1)).toEqual([
        '        +10 −1',
        '        -old',
        ...lines.slice(0, 7).map((line) => `        ${line}`),
        '        … 3 more changed lines (repa runs diff r1 n.md)',
      ]);
    });

    it('prints every changed line with allChangedLines (--verbose)', () => {
      const { out, text } = capture();
      feed(new RunPrinter({ out, json: false, allChangedLines: true }), events);
      expect(text().split('\n').slice(2, -1)).toEqual([
        '        -old',
        ...lines.map((line) => `        ${line}`),
      ]);
    });
  });

  describe('inputs and deliveries', () => {
    it('names the attached documents with their versions and each delivered message', () => {
      const { out, text } = capture();
      const printer = new RunPrinter({ out, json: false });
      feed(printer, [
        { type: 'sources-attached', sources: [{ path: 'notes/a.md', version: V1 }] },
        { type: 'text-delta', delta: 'Working' },
        { type: 'steer-delivered', text: 'Only notes.', requestRunId: 'r2' },
        { type: 'follow-up-delivered', text: 'Then summarize.', requestRunId: 'r3' },
      ]);
      expect(text()).toBe(
        `[attached] notes/a.md (${V1.slice(0, 12)})\nWorking\n[steer] delivered: Only notes.\n[follow-up] delivered: Then summarize.\n`,
      );
    });
  });

  describe('after a reconnection', () => {
    it('says the run’s status and which events were not received, as a line or as JSON', () => {
      const human = capture();
      const printer = new RunPrinter({ out: human.out, json: false });
      feed(printer, [{ type: 'text-delta', delta: 'Part' }]);
      printer.resumed(run({ status: 'running' }), 1);
      expect(human.text()).toBe(
        'Part\n[repa] reconnected to the daemon: run r1 is running; its events after #1 sent while the connection was down are not shown (repa runs show r1)\n',
      );
      const json = capture();
      new RunPrinter({ out: json.out, json: true }).resumed(run({ status: 'interrupted' }), 4);
      expect(JSON.parse(json.text())).toMatchObject({
        kind: 'resumed',
        run: { runId: 'r1', status: 'interrupted' },
        afterSeq: 4,
      });
    });
  });

  describe('human transcript', () => {
    it('streams the reply and puts every note on a line of its own, indented', () => {
      const { out, text } = capture();
      const printer = new RunPrinter({ out, json: false, indent: '  ' });
      feed(printer, [
        { type: 'status', status: 'running' },
        {
          type: 'tool-start',
          toolCallId: 't1',
          toolName: 'edit',
          args: { path: 'a.md', edits: [{}] },
        },
        {
          type: 'tool-end',
          toolCallId: 't1',
          toolName: 'edit',
          isError: false,
          receipts: [
            {
              operationId: 'op1',
              target: 'a.md',
              identity: 'repa:document/1',
              previousVersion: V1,
              version: V2,
              bytes: 5,
            },
          ],
        },
        { type: 'text-delta', delta: 'Saved' },
        { type: 'text-delta', delta: ' it.\nDone' },
        {
          type: 'file-change-notice',
          changes: [
            {
              target: 'b.md',
              kind: 'modified',
              previousVersion: V1,
              version: V2,
              form: 'notice',
              bytes: 9,
            },
          ],
        },
      ]);
      printer.finished(run(), false);
      expect(text()).toBe(
        [
          '  [tool] edit a.md (1 edit)',
          `  [saved] a.md  aaaaaaaa → bbbbbbbb, 5 bytes  receipt op1  repa:document/1`,
          '  Saved it.',
          '  Done',
          '  [changes] the model was told: b.md modified (aaaaaaaa → bbbbbbbb), 9 bytes',
          '  [succeeded] run r1',
          '',
        ].join('\n'),
      );
    });

    it('shows a tool failure without its fix, and a failed run with its error when asked to', () => {
      const { out, text } = capture();
      const printer = new RunPrinter({ out, json: false, showErrors: true });
      feed(printer, [
        {
          type: 'tool-end',
          toolCallId: 't1',
          toolName: 'read',
          isError: true,
          error: {
            code: 'not_found',
            message: 'not_found: No file x.md.\nFix: Check it.',
            fix: 'Check it.',
          },
        },
      ]);
      printer.finished(
        run({ status: 'failed', error: { code: 'internal', message: 'Boom.', fix: 'Report it.' } }),
        false,
      );
      expect(text()).toBe(
        '[tool] read failed: No file x.md. (not_found)\n[failed] run r1: Boom. (internal)\nFix: Report it.\n',
      );
    });

    it("prints a resubmitted run's output once", () => {
      const { out, text } = capture();
      const printer = new RunPrinter({ out, json: false });
      printer.accepted(run(), true);
      printer.finished(run({ output: 'Old answer.' }), true);
      expect(text()).toBe(
        '[run] request q1 was already accepted as run r1 (succeeded)\nOld answer.\n[succeeded] run r1\n',
      );
    });
  });

  describe('JSON lines', () => {
    it('prints one object per line and no notes', () => {
      const { out, text } = capture();
      const printer = new RunPrinter({ out, json: true });
      printer.accepted(run({ status: 'accepted' }), false);
      printer.note('ignored');
      feed(printer, [{ type: 'text-delta', delta: 'x' }]);
      printer.finished(run(), false);
      const lines = text()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => line.kind)).toEqual(['accepted', 'event', 'finished']);
      expect(lines[1]).toEqual({
        kind: 'event',
        runId: 'r1',
        sessionId: 's1',
        seq: 1,
        event: { type: 'text-delta', delta: 'x' },
      });
    });
  });
});

describe('describeToolArgs', () => {
  describe('shapes', () => {
    it('names the path and the kind of change, else shortened JSON', () => {
      expect(describeToolArgs('read', { path: 'a.md' })).toBe('a.md');
      expect(describeToolArgs('write', { path: 'a.md', content: 'abc' })).toBe('a.md (3 chars)');
      expect(describeToolArgs('apply_patch', { input: 'x'.repeat(200) })).toHaveLength(80);
    });

    it('names the target of searches, listings and patches', () => {
      expect(describeToolArgs('grep', { pattern: 'tide', path: 'notes' })).toBe('"tide" in notes');
      expect(describeToolArgs('grep', { pattern: 'tide', glob: '*.md' })).toBe('"tide" in *.md');
      expect(describeToolArgs('find', { pattern: '*.md' })).toBe('"*.md"');
      expect(describeToolArgs('ls', {})).toBe('.');
      expect(describeToolArgs('ls', { path: 'notes' })).toBe('notes');
      const patch =
        '*** Begin Patch\n*** Update File: a.md\n@@\n-x\n+y\n*** Add File: b.md\n+z\n*** End Patch';
      expect(describeToolArgs('apply_patch', { input: patch })).toBe('a.md, b.md');
    });
  });
});

describe('RunPrinter prompt sections', () => {
  const sections: RunEvent = {
    type: 'prompt-sections',
    sections: [
      { name: 'base', included: true, chars: 10, reason: 'built-in' },
      { name: 'learningContext', included: false, chars: 0, reason: 'none yet' },
    ],
  } as RunEvent;

  it('leaves them out by default and prints one line with summary (--verbose)', () => {
    const quiet = capture();
    feed(new RunPrinter({ out: quiet.out, json: false }), [sections]);
    expect(quiet.text()).toBe('');
    const verbose = capture();
    feed(new RunPrinter({ out: verbose.out, json: false, promptSections: 'summary' }), [sections]);
    expect(verbose.text()).toBe(
      '[prompt] the model saw base (10 chars); absent: learningContext: none yet\n',
    );
  });
});

describe('describeReceipt', () => {
  describe('new and deleted objects', () => {
    it('says new and deleted instead of a version', () => {
      const base = { operationId: 'op', target: 'n.md', identity: 'repa:document/2', bytes: 3 };
      expect(describeReceipt({ ...base, previousVersion: null, version: V2 })).toBe(
        'n.md  new → bbbbbbbb, 3 bytes  receipt op  repa:document/2',
      );
      expect(describeReceipt({ ...base, previousVersion: V1, version: null, bytes: 0 })).toBe(
        'n.md  deleted (was aaaaaaaa)  receipt op  repa:document/2',
      );
    });
  });
});
