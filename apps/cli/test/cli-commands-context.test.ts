import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RepaError } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { cliMain, repa, repaJson, sandboxArgs, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useCommandsSandbox } from './commands-sandbox.js';

const { sandbox, newSpace, writeLearningContext } = useCommandsSandbox();

describe('repa', () => {
  describe('context show', () => {
    it('says none, then shows the learning context the next run would see', async () => {
      const space = newSpace('context');
      const none = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(none.code).toBe(0);
      expect(none.stdout).toContain('context   none');
      expect((await repaJson(sandbox, ['context', 'show'], { cwd: space })).json).toMatchObject({
        space,
        learningContext: null,
        provided: true,
      });

      await writeLearningContext(space, {
        body: 'Studying tides.\nFocus: moon.',
        sources: ['a.md'],
      });
      await writeLearningContext(space, {
        body: 'Studying tides and moons.',
        sources: ['a.md', 'b.md'],
      });
      const shown = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(shown.stdout).toBe(
        `space     ${space}\nrevision  2\nsources   a.md, b.md\nprovided  yes (prompts.learningContext = true, from default)\n\nStudying tides and moons.\n`,
      );
      await repa(sandbox, ['settings', 'set', 'prompts.learningContext', 'false'], { cwd: space });
      const json = await repaJson(sandbox, ['context', 'show', '--space', space]);
      expect(json.json).toMatchObject({
        provided: false,
        learningContext: {
          revision: '2',
          sources: ['a.md', 'b.md'],
          body: 'Studying tides and moons.',
        },
      });
    });

    it('names a source edited or removed since the context was written, and says to rebuild', async () => {
      const space = newSpace('context-stale', { 'intro.md': '# Tides\n', 'notes.md': 'Moon.\n' });
      const set = await repa(
        sandbox,
        ['context', 'set', '--body', 'Tides.', '--source', 'intro.md', '--source', 'notes.md'],
        { cwd: space },
      );
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toBe('revision  1\n');
      const fresh = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(fresh.stdout).not.toContain('since this context was built');
      writeFileSync(join(space, 'intro.md'), '# Tides and moons\n');
      rmSync(join(space, 'notes.md'));
      const stale = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(stale.stdout).toContain(
        'intro.md changed since this context was built (just now) — rebuild with `repa context build`',
      );
      expect(stale.stdout).toContain('notes.md vanished since this context was built');
      const json = await repaJson<{ learningContext: { sourceStates: { state: string }[] } }>(
        sandbox,
        ['context', 'show'],
        { cwd: space },
      );
      expect(json.json.learningContext.sourceStates.map((source) => source.state)).toEqual([
        'changed',
        'vanished',
      ]);
    });

    it('context set takes the body from --file or --body, refuses a source outside the space', async () => {
      const space = newSpace('context-set');
      writeFileSync(join(sandbox.root, 'body.txt'), 'From a file.\n');
      const fromFile = await repaJson(sandbox, ['context', 'set', '--file', '../body.txt'], {
        cwd: space,
      });
      expect(fromFile.json).toMatchObject({ space, revision: '1' });
      const shown = await repaJson<{ learningContext: { body: string } }>(sandbox, [
        'context',
        'show',
        '--space',
        space,
      ]);
      expect(shown.json.learningContext.body).toBe('From a file.\n');
      const outside = await repa(
        sandbox,
        ['context', 'set', '--body', 'x', '--source', '../body.txt'],
        { cwd: space },
      );
      expect(outside.code).toBe(1);
      expect(outside.stderr).toContain('(path_outside_space)');
      const neither = await repa(sandbox, ['context', 'set'], { cwd: space });
      expect(neither.code).toBe(2);
      writeFileSync(join(sandbox.root, 'big.txt'), 'x'.repeat(300_000));
      const big = await repa(sandbox, ['context', 'set', '--file', '../big.txt'], { cwd: space });
      expect(big.code).toBe(1);
      expect(big.stderr).toMatch(/the limit is 262144 bytes.*\(invalid_request\)/);
    });

    it('context set refuses a damaged file unless --force, which keeps its bytes beside it', async () => {
      const space = newSpace('context-force');
      writeFiles(space, { '.repa/learning-context.json': '{ damaged' });
      const refused = await repa(sandbox, ['context', 'set', '--body', 'New.'], { cwd: space });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('(context_unavailable)');
      expect(readFileSync(join(space, '.repa', 'learning-context.json'), 'utf8')).toBe('{ damaged');
      const forced = await repa(sandbox, ['context', 'set', '--body', 'New.', '--force'], {
        cwd: space,
      });
      expect(forced.code, forced.stderr).toBe(0);
      const kept = /kept the damaged file as (.*)\n/.exec(forced.stdout)?.[1] ?? '';
      expect(readFileSync(kept, 'utf8')).toBe('{ damaged');
      expect(forced.stdout).toContain('revision  1\n');
    });

    it('context clear writes an empty body as a new revision', async () => {
      const space = newSpace('context-clear');
      await writeLearningContext(space, { body: 'Something.', sources: [] });
      const cleared = await repa(sandbox, ['context', 'clear'], { cwd: space });
      expect(cleared.code, cleared.stderr).toBe(0);
      expect(cleared.stdout).toBe('revision  2\n');
      const shown = await repaJson<{ learningContext: { body: string; sources: string[] } }>(
        sandbox,
        ['context', 'show'],
        { cwd: space },
      );
      expect(shown.json.learningContext).toMatchObject({ body: '', sources: [] });
    });

    it('context edit saves what a scripted $EDITOR wrote, keeps the sources, and saves nothing when unchanged', async () => {
      const space = newSpace('context-edit', { 'a.md': 'A\n' });
      await writeLearningContext(space, { body: 'Old body.', sources: ['a.md'] });
      const editor = join(sandbox.root, 'editor.mjs');
      writeFileSync(
        editor,
        "import { readFileSync, writeFileSync } from 'node:fs';\nconst file = process.argv[2];\nwriteFileSync(file, readFileSync(file, 'utf8').replace('Old', 'New'));\n",
      );
      const env = { VISUAL: '', EDITOR: `"${process.execPath}" "${editor}"` };
      const edited = await repa(sandbox, ['context', 'edit'], { cwd: space, env });
      expect(edited.code, edited.stderr).toBe(0);
      expect(edited.stdout).toBe('revision  2\n');
      const shown = await repaJson<{ learningContext: { body: string; sources: string[] } }>(
        sandbox,
        ['context', 'show'],
        { cwd: space },
      );
      expect(shown.json.learningContext).toMatchObject({ body: 'New body.', sources: ['a.md'] });
      const again = await repa(sandbox, ['context', 'edit'], { cwd: space, env });
      expect(again.stdout).toBe('unchanged; nothing saved\n');
    });

    it('context edit refuses to save when the context changed while the editor was open', async () => {
      const space = newSpace('context-edit-stale');
      await writeLearningContext(space, { body: 'Old body.', sources: [] });
      const editor = join(sandbox.root, 'editor-racing.mjs');
      writeFileSync(
        editor,
        [
          "import { execFileSync } from 'node:child_process';",
          "import { writeFileSync } from 'node:fs';",
          `execFileSync(process.execPath, ${JSON.stringify([cliMain, ...sandboxArgs(sandbox)])}.concat(['context', 'set', '--body', 'Meanwhile.', '--space', ${JSON.stringify(space)}]));`,
          "writeFileSync(process.argv[2], 'Mine.');",
        ].join('\n'),
      );
      const env = { VISUAL: `"${process.execPath}" "${editor}"` };
      const edited = await repa(sandbox, ['context', 'edit'], { cwd: space, env });
      expect(edited.code).toBe(1);
      expect(edited.stderr).toMatch(
        /changed while you edited it; your text is kept in (.*)\. \(stale_version\)/,
      );
      const kept = /your text is kept in (.*?)\. \(stale_version\)/.exec(edited.stderr)?.[1] ?? '';
      expect(readFileSync(kept, 'utf8')).toBe('Mine.');
      const shown = await repaJson<{ learningContext: { body: string } }>(
        sandbox,
        ['context', 'show'],
        { cwd: space },
      );
      expect(shown.json.learningContext.body).toBe('Meanwhile.');
    });

    it('the daemon answers two concurrent context.set calls from two clients: one wins, one is stale_version', async () => {
      const space = newSpace('context-race');
      const clients = [0, 1].map(() =>
        createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath }),
      );
      try {
        await Promise.all(clients.map((client) => client.connect()));
        const results = await Promise.allSettled(
          clients.map((client, index) =>
            client.request('context.set', {
              space,
              body: `Editor ${index}.`,
              sources: [],
              expectedRevision: null,
            }),
          ),
        );
        expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
        const rejected = results.find((result) => result.status === 'rejected');
        expect(RepaError.isInstance(rejected?.reason) && rejected.reason.code).toBe(
          'stale_version',
        );
        const [first] = clients;
        const { context } = (await first?.request('context.get', { space })) ?? {};
        expect(context?.revision).toBe('1');
      } finally {
        await Promise.all(clients.map((client) => client.close()));
      }
    });

    it('context build on repa-offline writes a labelled extractive context with progress; an edited source then shows as changed', async () => {
      const space = newSpace('context-build', {
        'intro.md': '# Tides\n\nThe moon pulls the sea. Twice a day.\n',
      });
      const built = await repa(
        sandbox,
        ['context', 'build', 'intro.md', '--instructions', 'moon'],
        {
          cwd: space,
        },
      );
      expect(built.code, built.stderr).toBe(0);
      expect(built.stdout).toBe(
        '… reading 1 source(s)\n… extracting headings and first sentences\n… writing the learning context\n' +
          'revision  1\nbuilt by  repa-offline (extractive: headings and first sentences, no language model)\n' +
          'sources   intro.md\n\n(Extractive context built offline by repa-offline, without a language model: the headings and\n' +
          'first sentences of each source. Build it with a model for a real study context.)\n\n' +
          '## intro.md\n- Tides\n  - The moon pulls the sea.\n',
      );
      const shown = await repaJson<{
        learningContext: { body: string; sources: string[]; sourceStates: { state: string }[] };
      }>(sandbox, ['context', 'show'], { cwd: space });
      expect(shown.json.learningContext.body).toContain(
        'Extractive context built offline by repa-offline',
      );
      expect(shown.json.learningContext.body).toContain('- Tides\n  - The moon pulls the sea.');
      expect(shown.json.learningContext.sourceStates).toEqual([
        { path: 'intro.md', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), state: 'unchanged' },
      ]);
      writeFileSync(join(space, 'intro.md'), '# Tides\n\nThe sun pulls too.\n');
      const stale = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(stale.stdout).toContain(
        'intro.md changed since this context was built (just now) — rebuild with `repa context build`',
      );
      const json = await repaJson(sandbox, ['context', 'build', 'intro.md'], { cwd: space });
      expect(json.json).toMatchObject({
        revision: '2',
        model: 'repa-offline',
        extractive: true,
        cut: [],
      });
      const missing = await repa(sandbox, ['context', 'build', 'nope.md'], { cwd: space });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('(not_found)');
    });

    it('fails with context_unavailable when the file is damaged, like the next run would', async () => {
      const space = newSpace('context-damaged');
      writeFileSync(join(space, 'README.md'), 'x');
      writeFiles(space, { '.repa/learning-context.json': '[]' });
      const { code, stderr } = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(code).toBe(1);
      expect(stderr).toMatch(/has the wrong shape .* \(context_unavailable\)\nFix: /);
      expect(existsSync(join(space, '.repa', 'learning-context.json'))).toBe(true);
    });
  });
});
