import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliMain, nodeBinary, repa, repaJson, sandboxArgs } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';

// Mistakes and how `repa` answers them, the space argument, sessions show, doctor and shell
// completion; one daemon on the offline model.
const sandbox = useDaemon({ model: 'repa-offline' });
const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('did-you-mean and Repa’s own messages', () => {
  it('names the closest command, subcommand and option', async () => {
    const [command, sub, option, value, flag] = await Promise.all([
      repa(sandbox, ['chta']),
      repa(sandbox, ['runs', 'lst']),
      repa(sandbox, ['sessions', 'list', '--spac', 'x']),
      repa(sandbox, ['run', '--space']),
      repa(sandbox, ['doctor', '--json=yes']),
    ]);
    expect(command.code).toBe(2);
    expect(command.stderr).toBe(
      "repa: Unknown command 'chta'. Did you mean 'chat'? (invalid_request)\nFix: Run 'repa --help' to see the commands.\n",
    );
    expect(sub.stderr).toMatch(
      /^repa: Unknown command 'repa runs lst'\. Did you mean 'repa runs list'\?/,
    );
    expect(option.code).toBe(2);
    expect(option.stderr).toBe(
      "repa: Unknown option '--spac'. Did you mean '--space'? (invalid_request)\nFix: Run 'repa sessions list --help' to see its options.\n",
    );
    expect(value.stderr).toMatch(/^repa: Option '--space' needs a value\. \(invalid_request\)$/m);
    expect(flag.stderr).toMatch(/^repa: Option '--json' takes no value\. \(invalid_request\)$/m);
    const [level, status] = await Promise.all([
      repa(sandbox, ['settings', 'get', '--level', 'sesion']),
      repa(sandbox, ['runs', 'list', '--status', 'canceled']),
    ]);
    expect(level.stderr).toMatch(
      /^repa: Unknown settings level 'sesion'\. Did you mean 'session'\?/,
    );
    expect(status.stderr).toMatch(
      /^repa: Unknown run status 'canceled'\. Did you mean 'cancelled'\?/,
    );
    for (const result of [option, value, flag]) {
      expect(result.stderr).not.toMatch(
        /argument missing|does not take an argument|place it at the end/,
      );
    }
  });

  it('names the closest setting key, and coerces VALUE to the setting’s type', async () => {
    const unknown = await repa(sandbox, ['settings', 'set', 'prompts.apend', 'x']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^repa: There is no setting 'prompts\.apend'\. Did you mean 'prompts\.append'\? \(not_found\)$/m,
    );
    const text = await repaJson<{ item: { value: unknown } }>(sandbox, [
      'settings',
      'set',
      'prompts.append',
      '12',
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.json.item.value).toBe('12');
    const flag = await repaJson<{ item: { value: unknown } }>(sandbox, [
      'settings',
      'set',
      'prompts.skillCatalog',
      'false',
    ]);
    expect(flag.json.item.value).toBe(false);
  });

  it('names repa commands in fixes, never protocol methods', async () => {
    const stale = await repa(sandbox, [
      'settings',
      'set',
      'prompts.append',
      'x',
      '--expected-revision',
      '999',
    ]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/\(stale_version\)\nFix: .*repa settings get/);
    expect(stale.stderr).not.toMatch(/settings\.get/);
  });

  it('prints errors with --json as one JSON object on stdout, with the same exit codes', async () => {
    const usage = await repa(sandbox, ['chta', '--json']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('');
    expect(JSON.parse(usage.stdout)).toEqual({
      kind: 'error',
      code: 'invalid_request',
      message: "Unknown command 'chta'. Did you mean 'chat'?",
      fix: "Run 'repa --help' to see the commands.",
    });
    const missing = await repa(sandbox, ['runs', 'show', 'no-such-run', '--json']);
    expect(missing.code).toBe(1);
    expect(missing.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ kind: 'error', code: 'not_found' });
  });
});

describe('the space argument', () => {
  it('refuses a file: it is a file, not a folder', async () => {
    const { code, stderr } = await repa(sandbox, ['run', '--space', 'notes/a.md', 'hi']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `repa: ${join(sandbox.space, 'notes', 'a.md')} is a file, not a folder. (invalid_request)\nFix: Pass the folder that holds it: --space ${join(sandbox.space, 'notes')}\n`,
    );
  });

  it('resolves a relative --space where `npm run repa` was typed, not in the repository root', () => {
    const result = spawnSync(
      'npm',
      [
        '--prefix',
        root,
        'run',
        '--silent',
        'repa',
        '--',
        ...sandboxArgs(sandbox),
        'run',
        '--space',
        'notes/a.md',
        'hi',
      ],
      { cwd: sandbox.space, env: sandbox.env, encoding: 'utf8' },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`repa: ${join(sandbox.space, 'notes', 'a.md')} is a file`);
  });
});

describe('repa sessions show', () => {
  it("names each tool call's target, and --limit keeps the last items", async () => {
    const run = await repa(sandbox, ['run', 'What does notes/a.md say about tides?']);
    expect(run.code, run.stderr).toBe(0);
    const shown = await repa(sandbox, ['sessions', 'show']);
    expect(shown.stdout).toMatch(/^\[assistant\] .*\n\[read notes\/a\.md\]$/m);
    const last = await repaJson<{ items: { kind: string }[] }>(sandbox, [
      'sessions',
      'show',
      '--limit',
      '1',
    ]);
    expect(last.json.items).toHaveLength(1);
    expect(last.json.items[0]?.kind).toBe('assistant');
  });
});

describe('repa doctor', () => {
  it('writes nothing: no Pi agent directory, no auth.json, no app directory', () => {
    const fresh = join(sandbox.root, 'fresh-home');
    mkdirSync(fresh);
    const out = execFileSync(nodeBinary, [cliMain, 'doctor'], {
      cwd: fresh,
      env: { ...sandbox.env, HOME: fresh },
      encoding: 'utf8',
    });
    expect(out).toMatch(/^node {6}v22\.\d+\.\d+ \(ok\)$/m);
    expect(out).toContain(
      `pi        ${join(fresh, '.pi', 'agent')} (does not exist); auth.json absent`,
    );
    expect(readdirSync(fresh)).toEqual([]);
  });

  it('reports the sandbox: bwrap absent from the PATH, and what tools.bash means', () => {
    const fresh = join(sandbox.root, 'no-bwrap-home');
    const emptyBin = join(sandbox.root, 'empty-bin');
    mkdirSync(fresh);
    mkdirSync(emptyBin);
    const out = execFileSync(nodeBinary, [cliMain, 'doctor'], {
      cwd: fresh,
      env: { ...sandbox.env, HOME: fresh, PATH: emptyBin },
      encoding: 'utf8',
    });
    expect(out).toMatch(/^sandbox {3}bwrap not on the PATH \(install bubblewrap/m);
    expect(out).toMatch(/^ {10}tools\.bash 'off' \(default\) never runs commands; 'sandboxed'/m);
    expect(readdirSync(fresh)).toEqual([]);
    expect(readdirSync(emptyBin)).toEqual([]);
  });

  it.skipIf(!existsSync('/usr/bin/bwrap'))(
    'reports that a sandbox starts, with the bwrap a run would use, where bubblewrap works',
    () => {
      const fresh = join(sandbox.root, 'bwrap-home');
      mkdirSync(fresh);
      const out = execFileSync(nodeBinary, [cliMain, 'doctor', '--json'], {
        cwd: fresh,
        env: { ...sandbox.env, HOME: fresh, PATH: '/usr/bin' },
        encoding: 'utf8',
      });
      const { setting, ...found } = JSON.parse(out).sandbox;
      expect(found).toEqual({ bwrap: '/usr/bin/bwrap', ready: true });
      expect(setting).toMatch(/^tools\.bash 'off' \(default\)/);
      const text = execFileSync(nodeBinary, [cliMain, 'doctor'], {
        cwd: fresh,
        env: { ...sandbox.env, HOME: fresh, PATH: '/usr/bin' },
        encoding: 'utf8',
      });
      expect(text).toContain(
        "sandbox   bwrap /usr/bin/bwrap starts a sandbox here: with tools.bash 'sandboxed' commands can run\n",
      );
      expect(readdirSync(fresh)).toEqual([]);
    },
  );

  it('reports a bwrap that cannot start a sandbox, with why and the fix', () => {
    const fresh = join(sandbox.root, 'broken-bwrap-home');
    const fakeBin = join(sandbox.root, 'broken-bwrap-bin');
    mkdirSync(fresh);
    mkdirSync(fakeBin);
    // A bwrap that fails as it does where user namespaces are not allowed.
    writeFileSync(
      join(fakeBin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const out = execFileSync(nodeBinary, [cliMain, 'doctor'], {
      cwd: fresh,
      env: { ...sandbox.env, HOME: fresh, PATH: fakeBin },
      encoding: 'utf8',
    });
    expect(out).toContain(
      `sandbox   a command would be refused: bubblewrap (${fakeBin}/bwrap) cannot start a sandbox here: bwrap: No permissions to create new namespace. (sandbox_unavailable)\n          Fix: Allow unprivileged user namespaces`,
    );
    expect(readdirSync(fresh)).toEqual([]);
  });

  it.skipIf(!existsSync('/usr/bin/bwrap'))(
    "with the daemon running, reports the sandbox from the daemon's PATH, not the CLI's",
    () => {
      const emptyBin = join(sandbox.root, 'cli-only-bin');
      mkdirSync(emptyBin);
      // The daemon of this file runs with the harness's PATH; this CLI has none with bwrap in it.
      const out = execFileSync(nodeBinary, [cliMain, ...sandboxArgs(sandbox), 'doctor', '--json'], {
        env: { ...sandbox.env, PATH: emptyBin },
        encoding: 'utf8',
      });
      const json = JSON.parse(out);
      expect(json.daemon.running).toBe(true);
      expect(json.sandbox).toMatchObject({ ready: true, bwrap: expect.stringMatching(/\/bwrap$/) });
    },
  );
});

describe('repa completion', () => {
  /** The bash script, asked of `repa` once (each `repa` is a process start; the script is static). */
  let bashScript: string | undefined;
  /** What bash completes after `repa` and `words` (the last one is the word being typed). */
  function complete(words: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
    bashScript ??= execFileSync(nodeBinary, [cliMain, 'completion', 'bash'], { encoding: 'utf8' });
    const script = bashScript;
    const quoted = ['repa', ...words].map((word) => `'${word}'`).join(' ');
    const out = execFileSync(
      'bash',
      [
        '-c',
        `${script}\nCOMP_WORDS=(${quoted}); COMP_CWORD=${words.length}; _repa; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8', ...options },
    );
    return out.split('\n').filter(Boolean);
  }

  it('completes commands, subcommands, options and their values in bash', () => {
    expect(complete(['se'])).toEqual(['settings', 'sessions']);
    expect(complete(['runs', ''])).toEqual([
      'list',
      'show',
      'cancel',
      'retry',
      'resume',
      'follow',
      'prune',
      'diff',
      'rewind',
    ]);
    expect(complete(['runs', 'list', '--st'])).toEqual(['--status']);
    expect(complete(['runs', 'list', '--status', 'ca'])).toEqual(['cancelled']);
    expect(complete(['--app-dir', '/tmp', 'settings', 'get', '--level', ''])).toEqual([
      'application',
      'space',
      'session',
    ]);
    expect(complete(['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });

  it('completes setting keys, and the model ids and session ids the running daemon knows', async () => {
    expect(complete(['settings', 'set', 'tools.b'])).toEqual([
      'tools.bash',
      'tools.bashTimeoutSeconds',
    ]);
    expect(complete(['settings', 'reset', 'model.th'])).toEqual(['model.thinkingLevel']);
    // The script asks `repa` on the PATH: here the sandbox's, talking to its daemon.
    const bin = join(sandbox.root, 'bin');
    mkdirSync(bin, { recursive: true });
    const shim = [nodeBinary, cliMain, ...sandboxArgs(sandbox)].map((word) => `'${word}'`);
    writeFileSync(join(bin, 'repa'), `#!/bin/sh\nexec ${shim.join(' ')} "$@"\n`, { mode: 0o755 });
    const space = join(sandbox.root, 'completed');
    mkdirSync(space, { recursive: true });
    const made = await repaJson<{ session: { sessionId: string } }>(sandbox, ['sessions', 'new'], {
      cwd: space,
    });
    const live = { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, cwd: space };
    expect(complete(['run', '--model', 'repa-'], live)).toEqual(['repa-offline']);
    expect(complete(['sessions', 'show', ''], live)).toEqual([made.json.session.sessionId]);
    expect(complete(['run', '--session', made.json.session.sessionId.slice(0, 6)], live)).toEqual([
      made.json.session.sessionId,
    ]);
  });

  const has = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0;

  it.skipIf(!has('zsh'))('completes in zsh, where zsh is installed', () => {
    const script = execFileSync(nodeBinary, [cliMain, 'completion', 'zsh'], { encoding: 'utf8' });
    const out = execFileSync(
      'zsh',
      [
        '-fc',
        `autoload -U compinit; compinit -u -D\n${script}\n__repa_candidates '' runs list --status; __repa_candidates '' run --space`,
      ],
      { encoding: 'utf8' },
    );
    expect(out.split('\n').filter(Boolean)).toEqual([
      'accepted',
      'running',
      'succeeded',
      'failed',
      'cancelled',
      'interrupted',
      ':dirs',
    ]);
  });

  it.skipIf(!has('fish'))('completes in fish, where fish is installed', () => {
    const script = join(sandbox.root, 'repa.fish');
    execFileSync('sh', ['-c', `"$0" "$1" completion fish > "$2"`, nodeBinary, cliMain, script]);
    const out = execFileSync(
      'fish',
      ['-c', `source ${script}; complete -C 'repa runs '; complete -C 'repa runs list --status c'`],
      { encoding: 'utf8' },
    );
    expect(out.split('\n').map((line) => line.split('\t')[0])).toEqual([
      'cancel',
      'follow',
      'list',
      'resume',
      'retry',
      'show',
      'cancelled',
      '',
    ]);
  });

  it('prints zsh and fish scripts made from the same command table', async () => {
    const help = (await repa(sandbox, ['--help'])).stdout;
    const words = [...help.matchAll(/^ {2}([a-z]+)(?: ([a-z]+))? {2,}/gm)];
    const [zsh, fish] = await Promise.all([
      repa(sandbox, ['completion', 'zsh']),
      repa(sandbox, ['completion', 'fish']),
    ]);
    expect(zsh.stdout).toMatch(/^#compdef repa$/m);
    expect(zsh.stdout).toContain('compdef _repa repa');
    for (const [, word, sub] of words) {
      expect(fish.stdout).toContain(`-a ${sub ?? word}`);
      expect(zsh.stdout).toContain(sub ?? word);
    }
    const bad = await repa(sandbox, ['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown shell 'tcsh'/);
  });
});
