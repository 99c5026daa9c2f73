import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAppDirectory } from './app-directory.js';

const home = '/home/learner';
const env = { XDG_CONFIG_HOME: '/xdg' };

describe('resolveAppDirectory', () => {
  describe('precedence', () => {
    it('uses appDirectory first', () => {
      expect(
        resolveAppDirectory({ appDirectory: '/app', agentDir: '/agent', env, homedir: home }),
      ).toBe('/app');
    });

    it('uses an explicit agentDir when no appDirectory is given', () => {
      expect(resolveAppDirectory({ agentDir: '/agent', env, homedir: home })).toBe('/agent');
    });

    it('uses $XDG_CONFIG_HOME/repa next', () => {
      expect(resolveAppDirectory({ env, homedir: home })).toBe('/xdg/repa');
    });

    it('falls back to ~/.config/repa', () => {
      expect(resolveAppDirectory({ env: {}, homedir: home })).toBe('/home/learner/.config/repa');
    });
  });

  describe('edge cases', () => {
    it('treats empty strings as not given', () => {
      expect(
        resolveAppDirectory({
          appDirectory: '',
          agentDir: '',
          env: { XDG_CONFIG_HOME: '' },
          homedir: home,
        }),
      ).toBe('/home/learner/.config/repa');
    });

    it('ignores a relative XDG_CONFIG_HOME', () => {
      expect(resolveAppDirectory({ env: { XDG_CONFIG_HOME: 'rel' }, homedir: home })).toBe(
        '/home/learner/.config/repa',
      );
    });

    it('makes a relative appDirectory absolute', () => {
      expect(resolveAppDirectory({ appDirectory: 'app-dir' })).toBe(join(process.cwd(), 'app-dir'));
    });

    it('reads process.env and the real home directory by default', () => {
      const saved = process.env.XDG_CONFIG_HOME;
      process.env.XDG_CONFIG_HOME = '/from-process-env';
      try {
        expect(resolveAppDirectory()).toBe('/from-process-env/repa');
      } finally {
        if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
        else process.env.XDG_CONFIG_HOME = saved;
      }
    });
  });
});
