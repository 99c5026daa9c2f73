import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repa, writeFiles } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { useSlowDaemon } from './commands-sandbox.js';
import { openTerminal, type Terminal } from './terminal-harness.js';

// `repa` in a real pseudo-terminal (tmux), against a model served by the test (slow-model.ts): a
// request saying "wait" is held open until it is cancelled, any other is answered at once.
const { sandbox, slow } = useSlowDaemon();
const terminals: Terminal[] = [];
const ESC = '\u001b[';

function terminal(...args: Parameters<typeof openTerminal>): Terminal {
  const opened = openTerminal(...args);
  terminals.push(opened);
  return opened;
}

afterAll(() => {
  for (const opened of terminals) opened.close();
});

describe('repa run on a terminal', () => {
  it('shows a spinner with the elapsed time while the model is awaited, and erases it', async () => {
    const held = slow().nextHeld();
    const screen = terminal(sandbox, ['run', '--space', sandbox.space, 'Please wait for me.']);
    await held;
    const waiting = await screen.waitFor(/waiting for the model \d+s/);
    expect(waiting).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for the model \d+s$/m);
    screen.keys('C-c');
    const ended = await screen.waitFor(/\[exit 130\]/);
    expect(ended).toMatch(/^\[cancelled\] run \S+$/m);
    expect(ended).not.toContain('waiting for the model');
  });

  it('colours the tags, unless NO_COLOR is set; piped output stays plain', async () => {
    const coloured = terminal(sandbox, ['run', '--space', sandbox.space, 'Hello there.']);
    const shown = await coloured.waitFor(/\[exit 0\]/, true);
    expect(shown).toContain(`${ESC}32m[succeeded]`);
    expect(shown).toContain(`${ESC}2m[repa]`);

    const plain = terminal(sandbox, ['run', '--space', sandbox.space, 'Hello there.'], {
      env: { NO_COLOR: '1' },
    });
    const plainScreen = await plain.waitFor(/\[exit 0\]/, true);
    expect(plainScreen).toMatch(/^\[succeeded\] run \S+$/m);
    expect(plainScreen).not.toContain(`${ESC}32m`);

    const piped = await repa(sandbox, ['run', 'Hello there.']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toContain('\u001b');
    expect(piped.stdout).toMatch(/^\[succeeded\] run [0-9a-f-]{36}$/m);
    const forced = await repa(sandbox, ['run', 'Hello there.'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(`${ESC}32m[succeeded]`);
  });

  it('prints the [prompt] line only with --verbose', async () => {
    const quiet = await repa(sandbox, ['run', 'Hello there.']);
    expect(quiet.stdout).not.toContain('[prompt]');
    const verbose = await repa(sandbox, ['run', '--verbose', 'Hello there.']);
    expect(verbose.stdout).toMatch(/^\[prompt\] the model saw base/m);
  });
});

describe('a folder that is not a space yet', () => {
  it('asks on a terminal, and leaves the folder alone when the answer is no', async () => {
    const folder = join(sandbox.root, 'fresh');
    writeFiles(folder, { 'a.md': '# A\n' });
    const declined = terminal(sandbox, ['run', 'Hello there.'], { cwd: folder });
    await declined.waitFor(/is not a Repa space yet\. Make it one\?.*\[Y\/n\]/s);
    declined.keys('n', 'Enter');
    const no = await declined.waitFor(/\[exit 1\]/);
    expect(no).toContain(`repa: ${folder} was not made a space. (cancelled)`);
    expect(existsSync(join(folder, '.repa'))).toBe(false);

    const accepted = terminal(sandbox, ['run', 'Hello there.'], { cwd: folder });
    await accepted.waitFor(/\[Y\/n\]/);
    accepted.keys('y', 'Enter');
    const yes = await accepted.waitFor(/\[exit 0\]/);
    expect(yes).toContain('Hello from the test model.');
    expect(existsSync(join(folder, '.repa'))).toBe(true);
  });

  it('says on stderr, without a terminal, that it makes the folder a space', async () => {
    const folder = join(sandbox.root, 'piped');
    mkdirSync(folder);
    const { code, stderr } = await repa(sandbox, ['run', 'Hello there.'], { cwd: folder });
    expect(code).toBe(0);
    expect(stderr).toContain(
      `repa: ${folder} is not a Repa space yet; making it one (Repa keeps its sessions and settings in ${join(folder, '.repa')}).`,
    );
    const again = await repa(sandbox, ['run', 'Hello there.'], { cwd: folder });
    expect(again.stderr).not.toContain('not a Repa space');
  });

  it('chat asks on a terminal before it makes the folder a space, as run does', async () => {
    const folder = join(sandbox.root, 'fresh-chat');
    writeFiles(folder, { 'a.md': '# A\n' });
    const declined = terminal(sandbox, ['chat'], { cwd: folder });
    await declined.waitFor(/is not a Repa space yet\. Make it one\?.*\[Y\/n\]/s);
    declined.keys('n', 'Enter');
    const no = await declined.waitFor(/\[exit 1\]/);
    expect(no).toContain(`repa: ${folder} was not made a space. (cancelled)`);
    expect(no).not.toContain('[repa] session');
    expect(existsSync(join(folder, '.repa'))).toBe(false);

    const accepted = terminal(sandbox, ['chat'], { cwd: folder });
    await accepted.waitFor(/\[Y\/n\]/);
    accepted.keys('y', 'Enter');
    await accepted.waitFor(/^─{100}$/m); // The chat's editor is up.
    expect(existsSync(join(folder, '.repa'))).toBe(true);
    accepted.keys('Hello there.', 'Enter');
    await accepted.waitFor(/^Hello from the test model\.\n\[succeeded\] run \S+$/m);
    accepted.keys('C-d');
    await accepted.waitFor(/\[exit 0\]/);
  });

  it('chat, with or without -c, says on stderr without a terminal that it makes the folder a space, and goes on', async () => {
    const folder = join(sandbox.root, 'piped-chat');
    mkdirSync(folder);
    const { code, stdout, stderr } = await repa(sandbox, ['chat'], {
      cwd: folder,
      input: 'Hello there.\n',
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(
      `repa: ${folder} is not a Repa space yet; making it one (Repa keeps its sessions and settings in ${join(folder, '.repa')}).`,
    );
    expect(stdout).toMatch(/^Hello from the test model\.\n\[succeeded\] run \S+$/m);
    const again = await repa(sandbox, ['chat'], { cwd: folder, input: '/exit\n' });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('not a Repa space');

    const other = join(sandbox.root, 'piped-chat-continue');
    mkdirSync(other);
    const continued = await repa(sandbox, ['chat', '-c'], { cwd: other, input: '/exit\n' });
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stderr).toContain(`repa: ${other} is not a Repa space yet; making it one`);
  });
});

describe('tables on a terminal', () => {
  it('fit the width with short unique ids, relative times and a SPACE column for --all', async () => {
    const screen = terminal(sandbox, ['runs', 'list', '--all'], { columns: 72 });
    const shown = await screen.waitFor(/\[exit 0\]/);
    const lines = shown.split('\n').filter((line) => line.trim() !== '');
    expect(lines[0]).toMatch(/^RUN +STATUS +SPACE +SESSION +ACCEPTED +REQUEST$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(72);
    // Each id as short as tells it apart: sessions made moments apart share 8 characters.
    expect(shown).toMatch(
      /^[0-9a-f]{8}[0-9a-f-]* +succeeded +\S+ +[0-9a-f]{8}[0-9a-f-]* +(just now|\d+ min ago) +Hello/m,
    );
    expect(shown).toContain('…');

    const piped = await repa(sandbox, ['runs', 'list', '--all']);
    expect(piped.stdout).toMatch(
      /^[0-9a-f-]{36} +succeeded +\/\S+ +[0-9a-f-]{36} +\d{4}-\d\d-\d\dT[\d:.]+Z +Hello there\.$/m,
    );
    // Each short session id shown starts exactly one of the sessions listed.
    const sessions = new Set(
      piped.stdout
        .split('\n')
        .slice(1)
        .map((line) => line.split(/ +/)[3]),
    );
    const shortIds = lines.flatMap((line) => /^\S+ +succeeded +\S+ +(\S+) /.exec(line)?.[1] ?? []);
    expect(shortIds.length).toBeGreaterThan(0);
    for (const short of shortIds) {
      expect([...sessions].filter((id) => id?.startsWith(short))).toHaveLength(1);
    }
  });
});
