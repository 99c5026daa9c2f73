import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SETTING_ITEMS } from '@repa/protocol';
import { createSandbox, repa, repaJson } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

// Nothing here needs a daemon: usage errors, help, doctor and status never start one.
const sandbox = createSandbox();

afterAll(async () => {
  await repa(sandbox, ['daemon', 'stop']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

const COMMANDS = [
  'run',
  'chat',
  'runs list',
  'runs show',
  'runs cancel',
  'runs retry',
  'runs follow',
  'runs diff',
  'runs rewind',
  'settings get',
  'settings set',
  'settings reset',
  'sessions list',
  'sessions show',
  'sessions new',
  'sessions rename',
  'sessions delete',
  'trust',
  'untrust',
  'context show',
  'daemon start',
  'daemon stop',
  'daemon restart',
  'daemon status',
  'doctor',
  'demo',
];

describe('repa', () => {
  describe('--help', () => {
    it('lists every command with the global options', async () => {
      const { code, stdout, stderr } = await repa(sandbox, ['--help']);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      for (const command of COMMANDS) {
        expect(stdout).toMatch(new RegExp(`^  ${command} +[a-z]`, 'm'));
      }
      expect(stdout).toMatch(/--app-dir DIR/);
      expect(stdout).toMatch(/--agent-dir DIR/);
      expect(stdout).toMatch(/--json/);
    });

    it('shows the usage of each command, and of each group', async () => {
      const results = [];
      for (let start = 0; start < COMMANDS.length; start += 6) {
        const batch = COMMANDS.slice(start, start + 6);
        results.push(
          ...(await Promise.all(
            batch.map((command) => repa(sandbox, [...command.split(' '), '--help'])),
          )),
        );
      }
      results.forEach(({ code, stdout }, index) => {
        expect(code, COMMANDS[index]).toBe(0);
        expect(stdout).toContain(`Usage: repa ${COMMANDS[index]}`);
        expect(stdout).toContain('Global options:');
      });
      const group = await repa(sandbox, ['settings', '--help']);
      expect(group.stdout).toMatch(
        /repa settings get .*\n.*repa settings set .*\n.*repa settings reset/,
      );
      const topic = await repa(sandbox, ['help', 'runs', 'retry']);
      expect(topic.stdout).toContain('Usage: repa runs retry [RUN_ID]');
    });

    it('lists every setting in settings set --help with its values, default and description', async () => {
      const { code, stdout } = await repa(sandbox, ['settings', 'set', '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain('\n  tools.bash * (off | sandboxed; default "off")\n');
      expect(stdout).toContain(
        '\n  daemon.idleMinutes (0–10080; default 30; application level only)\n',
      );
      const flat = stdout.replace(/\s+/g, ' ');
      for (const item of SETTING_ITEMS) {
        expect(stdout).toMatch(
          new RegExp(`^  ${item.key.replace('.', '\\.')} .*\\(${item.values}`, 'm'),
        );
        expect(flat).toContain(item.description.replace(/\s+/g, ' '));
      }
    });

    it('prints the version', async () => {
      const { code, stdout } = await repa(sandbox, ['--version']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    });
  });

  describe('usage errors', () => {
    it('exits 2 on an unknown command, with the message, code and fix on stderr', async () => {
      const { code, stdout, stderr } = await repa(sandbox, ['frobnicate']);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        "repa: Unknown command 'frobnicate'. (invalid_request)\nFix: Run 'repa --help' to see the commands.\n",
      );
    });

    it('exits 2 on an unknown subcommand, an unknown option and a missing argument', async () => {
      const [subcommand, option, missing, extra, global] = await Promise.all([
        repa(sandbox, ['runs', 'explode']),
        repa(sandbox, ['sessions', 'list', '--colour']),
        repa(sandbox, ['materials', 'remove']),
        repa(sandbox, ['doctor', 'now']),
        repa(sandbox, ['--frobnicate']),
      ]);
      expect(subcommand.code).toBe(2);
      expect(subcommand.stderr).toMatch(
        /^repa: Unknown command 'repa runs explode'\. \(invalid_request\)\nFix: /,
      );
      expect(option.code).toBe(2);
      expect(option.stderr).toMatch(
        /Unknown option '--colour'.*\(invalid_request\)\nFix: Run 'repa sessions list --help'/,
      );
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/Missing arguments: repa materials remove /);
      expect(extra.code).toBe(2);
      expect(extra.stderr).toMatch(/Unexpected argument 'now'/);
      expect(global.code).toBe(2);
      const topic = await repa(sandbox, ['help', 'nope']);
      expect(topic.code).toBe(2);
      expect(topic.stderr).toMatch(/^repa: Unknown command 'nope'\. \(invalid_request\)/);
    });

    it('exits 2 on a bad --level, --status or --limit before starting a daemon', async () => {
      const [level, status, limit, text] = await Promise.all([
        repa(sandbox, ['settings', 'get', '--level', 'planet']),
        repa(sandbox, ['runs', 'list', '--status', 'sleeping']),
        repa(sandbox, ['runs', 'list', '--limit', '0']),
        repa(sandbox, ['run', '   ']),
      ]);
      expect(level.code).toBe(2);
      expect(level.stderr).toBe(
        "repa: Unknown settings level 'planet'. (invalid_request)\nFix: Use --level application|space|session.\n",
      );
      expect(status.code).toBe(2);
      expect(status.stderr).toMatch(/Unknown run status 'sleeping'/);
      expect(limit.code).toBe(2);
      expect(text.code).toBe(2);
      expect(text.stderr).toMatch(/The request text is empty/);
      const { json } = await repaJson<{ running: boolean }>(sandbox, ['daemon', 'status']);
      expect(json.running).toBe(false);
    });
  });

  describe('daemon status and stop without a daemon', () => {
    it('reports that no daemon runs, in text and JSON', async () => {
      const text = await repa(sandbox, ['daemon', 'status']);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('daemon    not running');
      expect(text.stdout).toContain(join(sandbox.appDir, 'run', 'daemon.sock'));
      const { json } = await repaJson(sandbox, ['daemon', 'status']);
      expect(json).toMatchObject({
        running: false,
        appDirectory: sandbox.appDir,
        socketPath: join(sandbox.appDir, 'run', 'daemon.sock'),
        logPath: join(sandbox.appDir, 'run', 'daemon.log'),
      });
      const stop = await repaJson(sandbox, ['daemon', 'stop']);
      expect(stop.json).toEqual({ stopped: false });
    });

    it('uses $XDG_CONFIG_HOME/repa, else ~/.config/repa, when no --app-dir is given', async () => {
      const home = await repaJson(sandbox, ['daemon', 'status'], { global: false });
      expect(home.json.appDirectory).toBe(join(sandbox.home, '.config', 'repa'));
      const xdg = join(sandbox.root, 'xdg');
      const withXdg = await repa(sandbox, ['daemon', 'status', '--json'], {
        global: false,
        env: { XDG_CONFIG_HOME: xdg },
      });
      expect(JSON.parse(withXdg.stdout).appDirectory).toBe(join(xdg, 'repa'));
    });
  });

  describe('daemon start', () => {
    it("fails with the daemon's own error when the daemon cannot start", async () => {
      const { code, stdout, stderr } = await repa(sandbox, [
        'daemon',
        'start',
        '--model',
        'nope/x',
      ]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        'repa: The daemon did not start: Pi knows no model nope/x. (not_found)\nFix: Use provider/id as listed by `repa models --all`, or repa-offline.\n',
      );
      const { json } = await repaJson(sandbox, ['daemon', 'status']);
      expect(json.running).toBe(false);
    });
  });

  describe('doctor', () => {
    it('reports Node, the app dir, the daemon, Pi and the offline fallback with how to add a key', async () => {
      const { code, stdout } = await repa(sandbox, ['doctor']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^node {6}v22\.\d+\.\d+ \(ok\)$/m);
      expect(stdout).toContain(`app dir   ${sandbox.appDir}`);
      expect(stdout).toContain('daemon    not running');
      expect(stdout).toContain(`pi        ${sandbox.agentDir}`);
      expect(stdout).toContain('models    none with credentials');
      expect(stdout).toContain(
        'default   repa-offline (local responder, no language model) — no model has credentials, when no level sets model.id',
      );
      expect(stdout).toContain('repa login PROVIDER');
      expect(stdout).toContain(`or write it into ${join(sandbox.agentDir, 'auth.json')} by hand`);
      expect(stdout).toContain('ANTHROPIC_API_KEY');
    });

    it('prints the same facts as JSON, and starts no daemon', async () => {
      const { code, json } = await repaJson(sandbox, ['doctor']);
      expect(code).toBe(0);
      expect(json).toMatchObject({
        node: { ok: true },
        appDirectory: { path: sandbox.appDir },
        daemon: { running: false },
        pi: { agentDir: sandbox.agentDir, keyVariablesSet: [] },
        models: { default: 'repa-offline', offline: true, available: [] },
      });
      const status = await repaJson(sandbox, ['daemon', 'status']);
      expect(status.json.running).toBe(false);
    });
  });
});
