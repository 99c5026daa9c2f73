// Spec R67, R74: the sandboxed `bash` tool through Pi's real agent loop (faux provider): what a
// command can reach. Running beside other tools, stopping and turning it on and off are in
// bash-tool-control.test.ts. These tests need bubblewrap: without `bwrap` they fail with a message
// saying how to install it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ContentStore, diffGroup } from '@repa/content';
import { beforeAll, describe, expect, it } from 'vitest';
import { bash, needBubblewrap, processesRunning, run, sandboxed, toolEnds } from './bash-runs.js';
import { toolCall } from './faux-replies.js';

beforeAll(needBubblewrap);
describe('the sandboxed bash tool', () => {
  it('runs a command in the space and reports the files it created and changed', async () => {
    const space = mkdtempSync(join(tmpdir(), 'repa-bash-space-'));
    writeFileSync(join(space, 'notes.md'), 'old notes\n');
    const { outcome, events, results } = await run(
      [
        toolCall('read', { path: 'notes.md' }),
        bash('mkdir -p out && printf "made\\n" > out/made.txt && printf "new notes\\n" > notes.md'),
        toolCall('edit', { path: 'notes.md', edits: [{ oldText: 'new', newText: 'newer' }] }),
      ],
      sandboxed,
      { space },
    );
    expect(outcome.status).toBe('succeeded');
    expect(readFileSync(join(space, 'out/made.txt'), 'utf8')).toBe('made\n');
    const [, bashEnd, editEnd] = toolEnds(events);
    expect(bashEnd).toMatchObject({ toolName: 'bash', isError: false });
    expect(bashEnd?.receipts).toBeUndefined();
    expect(results[1]).toContain('[bash: exit code 0 after');
    expect(results[1]).toContain('- modified: notes.md');
    expect(results[1]).toContain('- new or changed: out/made.txt');
    const notices = events.flatMap((event) =>
      event.type === 'file-change-notice' ? event.changes : [],
    );
    expect(notices).toMatchObject([
      { target: 'notes.md', kind: 'modified' },
      {
        target: 'out/made.txt',
        kind: 'modified',
        previousVersion: null,
        version: createHash('sha256').update('made\n').digest('hex'),
        bytes: 5,
      },
    ]);
    // The old baseline is gone: the edit must read the file again, and nothing was overwritten.
    expect(editEnd).toMatchObject({ toolName: 'edit', isError: true });
    expect(editEnd?.error?.code).toBe('read_required');
    expect(readFileSync(join(space, 'notes.md'), 'utf8')).toBe('new notes\n');
    // A diff or rewind of the run lists what the command changed as not rewindable (spec R68).
    const diff = await diffGroup(await ContentStore.open({ root: space }), 'bash-run');
    expect(diff.commands.map((change) => change.target)).toEqual(['notes.md', 'out/made.txt']);
  });

  it('reports the exit code of a failing command as an error result', async () => {
    const { events, results } = await run([bash('echo before; exit 3')]);
    expect(toolEnds(events)[0]).toMatchObject({ toolName: 'bash', isError: true });
    expect(results[0]).toContain('before');
    expect(results[0]).toContain('Command exited with code 3');
    expect(results[0]).toContain('[bash: exit code 3 after');
  });

  it('stops a command past its output cap and leaves no full-output file of Pi behind', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'repa-bash-tmpdir-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      const { events, results } = await run([bash('yes | head -c 50000000; echo "after=$?"')]);
      expect(toolEnds(events)[0]).toMatchObject({ toolName: 'bash' });
      expect(results[0]).toContain('[bash: stopped (output over its limit of 4 MiB) with SIG');
      expect(results[0]).toContain('Full output not kept]');
      expect(results[0]).not.toContain('after=');
      expect(results[0]).not.toContain(temp);
      expect(readdirSync(temp).filter((name) => name.startsWith('pi-bash-'))).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('refuses writes outside the space and into .repa, and nothing outside changes', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'repa-bash-outside-'));
    // A folder of the real file system outside the private /tmp and the hidden home (wherever the
    // clone lives): read-only in the sandbox.
    const readOnlyDir = mkdtempSync('/var/tmp/repa-bash-readonly-');
    const readOnly = join(readOnlyDir, 'escape.txt');
    const { space, results } = await run([
      bash(`echo x > ${join(outside, 'escape.txt')}; echo "rc=$?"`),
      bash(`echo x > ${readOnly}; echo "rc=$?"`),
      bash('echo x > ../escape.txt; echo x > /tmp/escape.txt; echo "rc=$?"'),
      bash('echo x > .repa/planted; mkdir .repa/sessions/x; echo "rc=$?"'),
    ]);
    expect(results[0]).toContain('No such file or directory');
    expect(results[0]).toContain('rc=1');
    expect(results[1]).toContain('Read-only file system');
    expect(results[1]).toContain('rc=1');
    expect(results[3]).toContain('Read-only file system');
    expect(results[3]).toContain('rc=1');
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(readOnlyDir)).toEqual([]);
    rmSync(readOnlyDir, { recursive: true, force: true });
    expect(existsSync(join(dirname(space), 'escape.txt'))).toBe(false);
    expect(existsSync(join(tmpdir(), 'escape.txt'))).toBe(false);
    expect(existsSync(join(space, '.repa/planted'))).toBe(false);
    expect(existsSync(join(space, '.repa/sessions/x'))).toBe(false);
  });

  it('keeps the space’s .git read-only: no hook can be planted', async () => {
    const space = mkdtempSync(join(tmpdir(), 'repa-bash-space-'));
    mkdirSync(join(space, '.git/hooks'), { recursive: true });
    writeFileSync(join(space, '.git/config'), '[core]\n');
    const { results } = await run(
      [
        bash(
          'echo x > .git/hooks/x; echo "hook=$?"; echo y >> .git/config; echo "config=$?"; mv .git .git-moved; echo "mv=$?"',
        ),
      ],
      sandboxed,
      { space },
    );
    expect(results[0]).toContain('Read-only file system');
    expect(results[0]).toContain('hook=1');
    expect(results[0]).toContain('config=1');
    expect(results[0]).not.toContain('mv=0');
    expect(readdirSync(join(space, '.git/hooks'))).toEqual([]);
    expect(readFileSync(join(space, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(join(space, '.git-moved'))).toBe(false);
  });

  it('refuses writes into the folders it hides (home, app directory); /tmp stays writable', async () => {
    const profile = join(homedir(), '.profile');
    const profileBefore = existsSync(profile) ? readFileSync(profile) : undefined;
    const appDirectory = mkdtempSync(join(tmpdir(), 'repa-bash-app-'));
    const settings = join(appDirectory, 'settings.json');
    writeFileSync(settings, '{}\n');
    const { results, events } = await run(
      [
        bash(
          `echo x > ${profile}; echo "home=$?"; echo x > ${settings}; echo "app=$?"; echo x > /tmp/scratch && cat /tmp/scratch`,
        ),
      ],
      sandboxed,
      { appDirectory },
    );
    expect(toolEnds(events)[0]).toMatchObject({ toolName: 'bash', isError: false });
    expect(results[0]).toContain(`${profile}: Read-only file system`);
    expect(results[0]).toContain('home=1');
    expect(results[0]).toContain('app=1');
    expect(results[0]).toContain('x\n');
    expect(existsSync(profile) ? readFileSync(profile) : undefined).toEqual(profileBefore);
    expect(readFileSync(settings, 'utf8')).toBe('{}\n');
  });

  it('keeps every git folder of the space read-only and moves out each one a command makes', async () => {
    const space = mkdtempSync(join(tmpdir(), 'repa-bash-space-'));
    // A `.git` file naming a git folder elsewhere in the space, and a nested repository.
    for (const folder of ['realgit/objects', 'realgit/refs', 'realgit/hooks', 'sub', 'notes']) {
      mkdirSync(join(space, folder), { recursive: true });
    }
    writeFileSync(join(space, 'realgit/HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(space, 'realgit/config'), '[core]\n');
    writeFileSync(join(space, 'sub/.git'), 'gitdir: ../realgit\n');
    execFileSync('git', ['init', '-q', join(space, 'notes/inner')]);
    const nestedConfig = readFileSync(join(space, 'notes/inner/.git/config'), 'utf8');
    const { results, events } = await run(
      [
        bash(
          'echo "[core] fsmonitor = touch planted" >> realgit/config; echo "gitdir=$?"; echo x > realgit/hooks/pre-commit; echo "hook=$?"; echo x >> notes/inner/.git/config; echo "nested=$?"; echo "gitdir: ../elsewhere" > sub/.git; echo "file=$?"',
        ),
        bash(
          'git init -q fresh && git init -q --separate-git-dir=sep.git other && git init -q --bare bare.git && mkdir linked && ln -s ../fresh/.git linked/.git && echo made',
        ),
      ],
      sandboxed,
      { space },
    );
    for (const written of ['gitdir=1', 'hook=1', 'nested=1', 'file=1']) {
      expect(results[0]).toContain(written);
    }
    expect(readFileSync(join(space, 'realgit/config'), 'utf8')).toBe('[core]\n');
    expect(readdirSync(join(space, 'realgit/hooks'))).toEqual([]);
    expect(readFileSync(join(space, 'notes/inner/.git/config'), 'utf8')).toBe(nestedConfig);
    expect(readFileSync(join(space, 'sub/.git'), 'utf8')).toBe('gitdir: ../realgit\n');
    expect(results[1]).toContain('made');
    const moved = ['bare.git', 'fresh/.git', 'linked/.git', 'other/.git', 'sep.git'];
    for (const path of moved) {
      expect(existsSync(join(space, path))).toBe(false);
      expect(results[1]).toMatch(new RegExp(`- ${path} → \\.repa/quarantine/[^/]+/${path}(\n|$)`));
    }
    const [quarantine] = readdirSync(join(space, '.repa/quarantine'));
    expect(
      readFileSync(
        join(space, '.repa/quarantine', quarantine as string, 'fresh/.git/HEAD'),
        'utf8',
      ),
    ).toContain('ref:');
    // The learner's git finds no repository in what is left.
    expect(() =>
      execFileSync('git', ['-C', join(space, 'other'), 'rev-parse', '--git-dir'], {
        env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(space) },
        stdio: 'pipe',
      }),
    ).toThrow(/not a git repository/);
    const notices = events.flatMap((event) =>
      event.type === 'file-change-notice' ? event.changes : [],
    );
    expect(
      notices.filter((change) => change.kind === 'deleted').map((change) => change.target),
    ).toEqual(moved);
  });

  it('runs no command in a space that is itself a git folder', async () => {
    const space = mkdtempSync(join(tmpdir(), 'repa-bash-bare-'));
    execFileSync('git', ['init', '-q', '--bare', space]);
    const { results } = await run([bash('echo ran > ran.txt')], sandboxed, { space });
    expect(results[0]).toContain('space_unsafe');
    expect(existsSync(join(space, 'ran.txt'))).toBe(false);
  });

  it('has no network: a listener on the host loopback gets no connection', async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const { results } = await run([
        bash(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`),
        bash('exec 3<>/dev/tcp/192.0.2.1/80 && echo connected'),
      ]);
      expect(results[0]).not.toContain('connected\n');
      expect(results[0]).toMatch(/Connection refused|Network is unreachable/);
      expect(results[1]).toContain('Network is unreachable');
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('holds a fork bomb to the process limit, and nothing of it is left', async () => {
    const forks =
      'perl -e \'my $n = 0; while ($n < 100) { my $p = fork(); if (!defined $p) { print "forked $n, then: $!\\n"; exit 0 } if ($p == 0) { sleep 31401; exit 0 } $n++ } print "forked $n\\n"\'';
    const { results, events } = await run(
      [bash(forks, 10), bash(':(){ :|:& };:; exec sleep 31409', 2)],
      sandboxed,
      { bashLimits: { maxProcesses: 16, graceMillis: 200 } },
    );
    const forked = /forked (\d+), then: Resource temporarily unavailable/.exec(results[0] ?? '');
    expect(forked, results[0]).not.toBeNull();
    expect(Number(forked?.[1])).toBeLessThan(16);
    expect(results[1]).toContain('Resource temporarily unavailable');
    expect(results[1]).toContain('Command timed out after 2 seconds');
    expect(toolEnds(events).map((end) => end.isError)).toEqual([false, true]);
    expect(processesRunning(['sleep', '31401'])).toEqual([]);
    expect(processesRunning(['sleep', '31409'])).toEqual([]);
  });
});
