import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { SessionInfo } from '@repa/protocol';
import {
  type CliSandbox,
  cliMain,
  createSandbox,
  nodeBinary,
  repa,
  repaJson,
  SLOW_MODEL,
  type SlowModel,
  sandboxArgs,
  startSlowModel,
  writeFiles,
} from '@repa/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `repa chat` on a real pseudo-terminal: tmux runs it in a detached session of its own server,
// the test types keys into it and reads the screen back.
const sandbox = createSandbox();
const socket = `repa-test-${process.pid}`;
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const tmux = (...args: string[]) => {
  try {
    return execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('These tests drive a pseudo-terminal with tmux: apt-get install -y tmux');
    }
    throw error;
  }
};

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // No session was left.
  }
  await repa(sandbox, ['daemon', 'stop']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

/** `repa …` in a tmux pane of its own (100×40), in `cwd`; the exit code lands in a file. */
class Terminal {
  readonly #name: string;
  readonly #exitFile: string;

  constructor(name: string, args: readonly string[], cwd: string, box: CliSandbox = sandbox) {
    this.#name = name;
    this.#exitFile = join(box.root, `${name}.exit`);
    const env = `env -i PATH=${quote(process.env.PATH ?? '')} HOME=${quote(box.home)} TMPDIR=${quote(box.root)} PI_OFFLINE=1 TERM=xterm-256color`;
    const command = [nodeBinary, cliMain, ...sandboxArgs(box), ...args].map(quote).join(' ');
    const script = join(box.root, `${name}.sh`);
    writeFileSync(
      script,
      `cd ${quote(cwd)}\n${env} ${command}\necho $? > ${quote(this.#exitFile)}\nexec sleep 600\n`,
    );
    tmux('new-session', '-d', '-s', name, '-x', '100', '-y', '40', `sh ${quote(script)}`);
  }

  /** The visible screen, one string. */
  screen(): string {
    return tmux('capture-pane', '-p', '-t', this.#name);
  }

  /** Types keys (tmux key names: `Enter`, `M-Enter`, `C-c`; other words as text). */
  keys(...keys: string[]): void {
    tmux('send-keys', '-t', this.#name, ...keys);
  }

  /** Types text literally. */
  type(text: string): void {
    tmux('send-keys', '-t', this.#name, '-l', text);
  }

  /** Waits until the screen matches; fails with the screen when repa ends or after 25 s. */
  async waitFor(pattern: RegExp): Promise<string> {
    for (let tries = 0; ; tries += 1) {
      const screen = this.screen();
      if (pattern.test(screen)) return screen;
      if (this.exitCode() !== undefined || tries === 250) {
        throw new Error(`No ${pattern} on the screen (repa exit ${this.exitCode()}):\n${screen}`);
      }
      await delay(100);
    }
  }

  /** The exit code once `repa` ended. */
  exitCode(): number | undefined {
    return existsSync(this.#exitFile)
      ? Number(readFileSync(this.#exitFile, 'utf8').trim())
      : undefined;
  }

  /** Waits for `repa` to end and answers its exit code. */
  async exited(): Promise<number> {
    for (;;) {
      const code = this.exitCode();
      if (code !== undefined) return code;
      await delay(100);
    }
  }
}

/** The editor's top rule: the terminal UI is up (keys typed before would reach the bare tty). */
const EDITOR = /^─{100}$/m;

function newSpace(name: string): string {
  const space = join(sandbox.root, name);
  writeFiles(space, { 'notes/a.md': '# Tides\n\nThe tide turns every six hours.\n' });
  return space;
}

async function sessionsOf(space: string): Promise<SessionInfo[]> {
  return (
    await repaJson<{ sessions: SessionInfo[] }>(sandbox, ['sessions', 'list', '--space', space])
  ).json.sessions;
}

async function userTexts(space: string, box = sandbox): Promise<string[]> {
  const shown = await repaJson<{ items: { kind: string; text: string }[] }>(box, [
    'sessions',
    'show',
    '--space',
    space,
  ]);
  return shown.json.items.filter((item) => item.kind === 'user').map((item) => item.text);
}

describe('repa chat on a terminal', () => {
  it('sends a multi-line request typed with Alt-Enter between its lines', async () => {
    const space = newSpace('multi-line');
    const chat = new Terminal('multiline', ['chat', '--space', space], space);
    await chat.waitFor(EDITOR);
    chat.type('What does notes/a.md say');
    chat.keys('M-Enter');
    chat.type('about the tide?');
    // Both lines are in the editor, not sent yet.
    await chat.waitFor(/^What does notes\/a\.md say\s*\nabout the tide\?/m);
    expect(chat.screen()).not.toContain('you> ');
    chat.keys('Enter');
    const screen = await chat.waitFor(/^\[succeeded\] run \S+/m);
    expect(screen).toMatch(/^you> What does notes\/a\.md say\s*\n {5}about the tide\?\s*$/m);
    expect(screen).toContain('[repa-offline] From notes/a.md: The tide turns every six hours.');
    chat.keys('C-d');
    expect(await chat.exited()).toBe(0);
    expect(await userTexts(space)).toEqual(['What does notes/a.md say\nabout the tide?']);
  });

  it('streams a run another client starts in its session (the page, another terminal)', async () => {
    const space = newSpace('watched');
    const chat = new Terminal('watched', ['chat', '--space', space, '--new'], space);
    await chat.waitFor(EDITOR);
    const [session] = await sessionsOf(space);
    const other = await repa(sandbox, [
      'run',
      '--space',
      space,
      '--session',
      session?.sessionId ?? '',
      'What does notes/a.md say?',
    ]);
    expect(other.code, other.stderr).toBe(0);
    const screen = await chat.waitFor(/^\[succeeded\] run \S+/m);
    expect(screen).toMatch(/^\[another client\] What does notes\/a\.md say\?$/m);
    expect(screen).toContain('[repa-offline] From notes/a.md: The tide turns every six hours.');
    chat.keys('C-d');
    expect(await chat.exited()).toBe(0);
  });

  it('clears a half-typed request on Ctrl-C, refuses unknown slash commands, runs known ones, leaves on Ctrl-C', async () => {
    const space = newSpace('slash');
    const chat = new Terminal('slash', ['chat', '--space', space], space);
    await chat.waitFor(EDITOR);
    const first = (chat.screen().match(/^\[repa\] session (\S+) \(new\)/m) ?? [])[1];

    chat.type('half typed words');
    await chat.waitFor(/^half typed words/m);
    chat.keys('C-c');
    await chat.waitFor(/^─+\n\s*\n─+/m); // The editor between its two rules is empty again.
    expect(chat.screen()).not.toContain('half typed words');
    expect(chat.exitCode()).toBeUndefined();

    chat.type('/nope');
    chat.keys('Enter');
    await chat.waitFor(/^Unknown command \/nope; nothing was sent\. \/help lists the commands\.$/m);
    chat.type('/help');
    chat.keys('Enter');
    await chat.waitFor(/^ {2}\/sessions +list the recent sessions of the space$/m);
    chat.type('/new');
    chat.keys('Enter');
    const renewed = await chat.waitFor(/\(new\)[\s\S]*\(new\)/);
    const sessions = [...renewed.matchAll(/^\[repa\] session (\S+) \(new\)$/gm)].map((m) => m[1]);
    expect(sessions).toHaveLength(2);
    expect(sessions[1]).not.toBe(first);
    chat.type('/sessions');
    chat.keys('Enter');
    // A short id that tells the sessions apart; /resume N switches.
    await chat.waitFor(
      new RegExp(`^ {1}1\\. ${sessions[1]?.slice(0, 8)}\\S* .*\\(current\\)$`, 'm'),
    );
    chat.type('/resume 2');
    chat.keys('Enter');
    await chat.waitFor(new RegExp(`^\\[repa\\] session ${first}\\n\\(no history yet\\)$`, 'm'));

    chat.keys('C-c'); // On an empty editor: leaves.
    expect(await chat.exited()).toBe(0);
    expect((await sessionsOf(space)).map((session) => session.sessionId).sort()).toEqual(
      [first, sessions[1]].sort(),
    );
    for (const session of await sessionsOf(space)) {
      const history = await repaJson<{ items: unknown[] }>(sandbox, [
        'sessions',
        'show',
        session.sessionId,
        '--space',
        space,
      ]);
      expect(history.json.items).toEqual([]); // Nothing, not even /nope, reached the model.
    }
  });

  it('--resume lists the recent sessions and continues the one picked, showing its last turns, a status line, and how to come back', async () => {
    const space = newSpace('resume');
    await repa(sandbox, ['run', 'Older request'], { cwd: space });
    await repa(sandbox, ['sessions', 'new'], { cwd: space });
    const [newer, older] = await sessionsOf(space);
    const chat = new Terminal('resume', ['chat', '--resume'], space);
    await chat.waitFor(/^Session \[1-2, empty for a new one\]:/m);
    const list = chat.screen();
    expect(list).toMatch(new RegExp(`^ 1\\. ${newer?.sessionId.slice(0, 8)}\\S* `, 'm'));
    expect(list).toMatch(
      new RegExp(`^ 2\\. ${older?.sessionId.slice(0, 8)}\\S* .* Older request$`, 'm'),
    );
    chat.type('2');
    chat.keys('Enter');
    await chat.waitFor(new RegExp(`^\\[repa\\] session ${older?.sessionId}$`, 'm'));
    // The earlier turns, then the status line under the editor: model, thinking, context, session.
    const screen = await chat.waitFor(
      /^repa-offline · thinking \S+ · edits auto · context.* · session \S+$/m,
    );
    expect(screen).toMatch(/^\[user\] .*\nOlder request$/m);
    expect(screen).toMatch(/^\[assistant\] .*\n\[repa-offline\] /m);
    expect(screen.search(/^\[user\] /m)).toBeLessThan(screen.search(EDITOR));
    chat.type('/history');
    chat.keys('Enter');
    await chat.waitFor(/^No earlier turns in this session\.$/m);
    chat.keys('C-d');
    expect(await chat.exited()).toBe(0);
    // Leaving says how to come back (the line may wrap at the pane's width).
    expect(chat.screen().replace(/\n/g, '')).toContain(
      `[repa] to come back: repa chat (the most recent session) or repa chat --session ${older?.sessionId}`,
    );
  });
});

describe('repa chat on a terminal, while a reply streams', () => {
  // A model served by the test holds a request that says "wait" until Pi aborts it (slow-model.ts).
  const held = createSandbox();
  let slow: SlowModel;
  beforeAll(async () => {
    slow = await startSlowModel();
    slow.configure(held.agentDir);
    const start = await repa(held, ['daemon', 'start', '--model', SLOW_MODEL]);
    expect(start.code, start.stderr).toBe(0);
  });
  afterAll(async () => {
    await repa(held, ['daemon', 'stop']);
    await slow.close();
    rmSync(held.root, { recursive: true, force: true });
  });

  it('keeps the editor live: a request typed meanwhile waits; Ctrl-C cancels the reply, not the chat', async () => {
    const chat = new Terminal('streaming', ['chat', '--space', held.space], held.space, held);
    await chat.waitFor(EDITOR);
    const waiting = slow.nextHeld();
    chat.type('Please wait for me.');
    chat.keys('Enter');
    await waiting; // The run is active: Pi waits on the model.
    // Between the request and the first token: a working indicator with the elapsed time.
    await chat.waitFor(/^\S waiting for the model · \d+s$/m);
    chat.type('And then this.');
    chat.keys('Enter');
    await chat.waitFor(/^\[queued\] And then this\. \(run \S+, position 1\)$/m);
    expect(chat.screen()).not.toMatch(/^you> And then this\.$/m);

    const aborted = slow.aborted;
    chat.keys('C-c');
    const screen = await chat.waitFor(/^Hello from the test model\.\n\[succeeded\] run \S+$/m);
    expect(screen).toMatch(/^\[cancel\] cancelling the run …$/m);
    expect(screen).toMatch(/^\[cancelled\] run \S+: The run was cancelled\. \(cancelled\)$/m);
    expect(screen).toMatch(/^you> And then this\.$/m);
    expect(slow.aborted).toBe(aborted + 1); // Pi aborted the model call.
    expect(chat.exitCode()).toBeUndefined();
    chat.keys('C-c');
    expect(await chat.exited()).toBe(0);
  });

  it('queues a request typed meanwhile in the session, steers the held reply with /steer, then streams both replies in order', async () => {
    const chat = new Terminal('steering', ['chat', '--space', held.space], held.space, held);
    await chat.waitFor(EDITOR);
    chat.type('/steer too early');
    chat.keys('Enter');
    await chat.waitFor(/^No reply is running in this session, so \/steer has nothing to go into/m);

    const waiting = slow.nextHeld();
    chat.type('First, wait for me.');
    chat.keys('Enter');
    await waiting;
    chat.type('Second request.');
    chat.keys('Enter');
    // Pending below the reply, until its turn.
    await chat.waitFor(/^\[queued\] Second request\. \(run \S+, position 1\)$/m);
    const queued = await repaJson<{ runs: { queuePosition?: number }[] }>(held, [
      'runs',
      'list',
      '--space',
      held.space,
    ]);
    expect(queued.json.runs.some((run) => run.queuePosition === 1)).toBe(true); // Server-side.

    chat.type('/steer mention the moon');
    chat.keys('Enter');
    await chat.waitFor(/^\[steer\] mention the moon \(waits for the reply's next step\)$/m);
    const before = slow.requests.length;
    slow.release();
    const screen = await chat.waitFor(
      /^you> Second request\.\n(?:.*\n)*?Hello from the test model\.\n\[succeeded\] run \S+$/m,
    );
    // The held model's next request carries the steer text.
    expect(
      slow.requests
        .slice(before)
        .some((messages) => JSON.stringify(messages).includes('mention the moon')),
    ).toBe(true);
    const first = screen.indexOf('you> First, wait for me.');
    const second = screen.indexOf('you> Second request.');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first);
    expect(screen.slice(first, second)).toMatch(/^\[succeeded\] run \S+$/m);
    // Each once, where the model took it up: the steer inside the first reply, then the second.
    expect(screen.match(/mention the moon/g)).toHaveLength(1);
    expect(screen.match(/Second request\./g)).toHaveLength(1);
    const steered = screen.indexOf('[steer] delivered: mention the moon');
    expect(steered).toBeGreaterThan(first);
    expect(steered).toBeLessThan(second);
    chat.keys('C-d');
    expect(await chat.exited()).toBe(0);
    expect(await userTexts(held.space, held)).toEqual(
      expect.arrayContaining(['First, wait for me.', 'Second request.']),
    );
  });
});
