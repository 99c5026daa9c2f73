import { homedir } from 'node:os';
import { join } from 'node:path';
import { OFFLINE_MODEL_ID, resolveAppDirectory } from '@repa/application';
import { describe, expect, it } from 'vitest';
import { appDirectoryOf, describeModel, OFFLINE_MODEL } from './app-directory.js';

describe('appDirectoryOf', () => {
  describe('agreement with @repa/settings', () => {
    const cases: {
      name: string;
      options: { appDirectory?: string; agentDir?: string };
      env: Record<string, string | undefined>;
    }[] = [
      { name: '--app-dir wins', options: { appDirectory: 'rel/app', agentDir: '/a' }, env: {} },
      {
        name: 'then --agent-dir',
        options: { agentDir: '/pi/agent' },
        env: { XDG_CONFIG_HOME: '/x' },
      },
      { name: 'then XDG_CONFIG_HOME', options: {}, env: { XDG_CONFIG_HOME: '/xdg' } },
      {
        name: 'a relative XDG_CONFIG_HOME is ignored',
        options: {},
        env: { XDG_CONFIG_HOME: 'rel' },
      },
      { name: 'an empty one too', options: { appDirectory: '' }, env: { XDG_CONFIG_HOME: '' } },
    ];
    for (const { name, options, env } of cases) {
      it(name, () => {
        expect(appDirectoryOf(options, env)).toBe(
          resolveAppDirectory({ ...options, env, homedir: homedir() }),
        );
      });
    }

    it('falls back to ~/.config/repa', () => {
      expect(appDirectoryOf({}, {})).toBe(join(homedir(), '.config', 'repa'));
    });
  });
});

describe('describeModel', () => {
  describe('the offline responder', () => {
    it('uses the host name and says it is no language model', () => {
      expect(OFFLINE_MODEL).toBe(OFFLINE_MODEL_ID);
      expect(describeModel(OFFLINE_MODEL_ID)).toBe(
        'repa-offline (local responder, no language model)',
      );
      expect(describeModel('anthropic/claude-x')).toBe('anthropic/claude-x');
    });
  });
});
