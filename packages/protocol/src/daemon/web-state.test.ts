import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { daemonPaths } from './app-directory.js';
import { keepingWebState } from './web-state.js';

/** An app directory whose `run/web.json` holds `text`, when given. */
function appDirectory(text?: string): string {
  const directory = mkdtempSync(`${tmpdir()}/repa-web-state-`);
  mkdirSync(daemonPaths(directory).runDirectory);
  if (text !== undefined) writeFileSync(daemonPaths(directory).webStatePath, text);
  return directory;
}

/** What a clean stop of the daemon does to the web state: it deletes it. */
const cleanStop = (directory: string) => async () => {
  rmSync(daemonPaths(directory).webStatePath, { force: true });
  return 'stopped';
};

describe('keepingWebState', () => {
  it('puts back the web state a clean stop deletes, byte for byte, and answers what stop answers', async () => {
    const state = '{"port":4242,"secret":"s"}\n';
    const directory = appDirectory(state);
    expect(await keepingWebState(directory, cleanStop(directory))).toBe('stopped');
    expect(readFileSync(daemonPaths(directory).webStatePath, 'utf8')).toBe(state);
  });

  it('makes no web state when there was none', async () => {
    const directory = appDirectory();
    await keepingWebState(directory, cleanStop(directory));
    expect(existsSync(daemonPaths(directory).webStatePath)).toBe(false);
  });

  it('puts it back when the stop fails too', async () => {
    const directory = appDirectory('{}\n');
    const failing = async () => {
      throw new Error('no stop');
    };
    await expect(keepingWebState(directory, failing)).rejects.toThrow('no stop');
    expect(readFileSync(daemonPaths(directory).webStatePath, 'utf8')).toBe('{}\n');
  });
});
