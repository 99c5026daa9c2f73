import type { SettingItemView } from '@repa/protocol';
import { repa, repaJson } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useCommandsSandbox } from './commands-sandbox.js';

const { sandbox, newSpace } = useCommandsSandbox();

describe('repa', () => {
  describe('settings', () => {
    it('shows every setting with value, source and revisions, as a table and as JSON', async () => {
      const space = newSpace('settings-get');
      const { code, stdout } = await repa(sandbox, ['settings', 'get'], { cwd: space });
      expect(code).toBe(0);
      expect(stdout).toMatch(/^KEY +VALUE +SOURCE +REVISIONS\n/);
      expect(stdout).toMatch(
        /^prompts\.fileChanges +"on-demand" +default +application \d+, space 0$/m,
      );
      expect(stdout).toMatch(/^prompts\.base +null +default /m);
      const json = await repaJson<{ items: SettingItemView[]; space: string }>(
        sandbox,
        ['settings'],
        { cwd: space },
      );
      expect(json.json.space).toBe(space);
      expect(json.json.items.map((item) => item.key)).toEqual([
        'prompts.base',
        'prompts.append',
        'prompts.projectInstructions',
        'prompts.skillCatalog',
        'prompts.environment',
        'prompts.learningContext',
        'prompts.fileChanges',
        'prompts.citations',
        'prompts.studySummary',
        'model.id',
        'model.thinkingLevel',
        'tools.enabled',
        'tools.bash',
        'tools.bashTimeoutSeconds',
        'tools.edits',
        'study.mode',
        'daemon.idleMinutes',
        'compaction.instructions',
        'runs.retentionDays',
        'history.maxMegabytes',
        'history.maxDays',
        'study.retention',
        'study.maximumInterval',
        'study.fuzz',
        'study.shortTerm',
        'study.learningSteps',
        'study.relearningSteps',
      ]);
      const one = await repaJson<{ items: SettingItemView[] }>(sandbox, [
        'settings',
        'get',
        'prompts.append',
        '--level',
        'application',
      ]);
      expect(one.json.items).toHaveLength(1);
      expect(one.json.items[0]?.revisions.space).toBeUndefined();
      const unknown = await repa(sandbox, ['settings', 'get', 'prompts.colour'], { cwd: space });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/There is no setting 'prompts.colour'\. \(not_found\)/);
    });

    it('describes one setting asked for by KEY: values, default, rules and what it does', async () => {
      const space = newSpace('settings-describe');
      const bash = await repa(sandbox, ['settings', 'get', 'tools.bash'], { cwd: space });
      expect(bash.code).toBe(0);
      expect(bash.stdout).toMatch(/^tools\.bash +"off" +default +application \d+, space 0\n\n/m);
      expect(bash.stdout).toContain('\nvalues   off | sandboxed\ndefault  "off"\ntrust    ');
      expect(bash.stdout).toMatch(
        /^Whether the model may run shell commands with the `bash` tool/m,
      );
      const idle = await repa(sandbox, [
        'settings',
        'get',
        'daemon.idleMinutes',
        '--level',
        'application',
      ]);
      expect(idle.stdout).toContain(
        "\nvalues   0–10080\ndefault  30\nlevel    only the application level's value is read\n",
      );
      const all = await repa(sandbox, ['settings', 'get'], { cwd: space });
      expect(all.stdout).not.toContain('values   ');
    });

    it('sets values parsed as JSON or taken as strings, per level, and resets them', async () => {
      const space = newSpace('settings-set');
      const set = await repaJson<{ item: SettingItemView; level: string }>(
        sandbox,
        ['settings', 'set', 'prompts.fileChanges', 'notice'],
        { cwd: space },
      );
      expect(set.code).toBe(0);
      expect(set.json.level).toBe('space');
      expect(set.json.item).toMatchObject({ value: 'notice', source: 'space' });
      expect(set.json.item.overrides.space).toEqual({ value: 'notice', revision: 1 });

      const boolean = await repa(
        sandbox,
        ['settings', 'set', 'prompts.environment', 'false', '--level', 'session'],
        { cwd: space },
      );
      expect(boolean.code).toBe(0);
      expect(boolean.stdout).toMatch(
        /^prompts\.environment +false +session +application \d+, space 0, session 1$/m,
      );
      const quoted = await repaJson<{ item: SettingItemView }>(
        sandbox,
        ['settings', 'set', 'prompts.append', '"true"', '--level', 'session'],
        { cwd: space },
      );
      expect(quoted.json.item.value).toBe('true');
      const text = await repaJson<{ item: SettingItemView }>(
        sandbox,
        ['settings', 'set', 'prompts.append', 'Answer in French.', '--level', 'session'],
        { cwd: space },
      );
      expect(text.json.item.value).toBe('Answer in French.');

      const view = await repaJson<{ items: SettingItemView[] }>(sandbox, ['settings', 'get'], {
        cwd: space,
      });
      const byKey = Object.fromEntries(view.json.items.map((item) => [item.key, item]));
      expect(byKey['prompts.environment']).toMatchObject({ value: false, source: 'session' });
      expect(byKey['prompts.fileChanges']).toMatchObject({ value: 'notice', source: 'space' });

      const reset = await repaJson<{ item: SettingItemView }>(
        sandbox,
        ['settings', 'reset', 'prompts.environment', '--level', 'session'],
        { cwd: space },
      );
      expect(reset.json.item).toMatchObject({ value: true, source: 'default' });
      const again = await repa(
        sandbox,
        ['settings', 'reset', 'prompts.environment', '--level', 'session'],
        { cwd: space },
      );
      expect(again.code).toBe(0);
      expect(again.stderr).toContain('prompts.environment has no value at the session level');
      const stale = await repa(
        sandbox,
        ['settings', 'set', 'prompts.append', 'x', '--level', 'space', '--expected-revision', '7'],
        { cwd: space },
      );
      expect(stale.code).toBe(1);
      expect(stale.stderr).toMatch(/\(stale_version\)\nFix: /);
      const invalid = await repa(sandbox, ['settings', 'set', 'prompts.fileChanges', 'loud'], {
        cwd: space,
      });
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toMatch(/\(invalid_request\)\nFix: /);
    });
  });
});
