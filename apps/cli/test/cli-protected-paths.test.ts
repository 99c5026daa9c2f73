import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { type EndpointToolCall, startOpenAiEndpoint } from '@repa/fixtures';
import { createSandbox, repa, repaJson, writeFiles } from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEndpointDaemon } from './commands-sandbox.js';

// The agent turned against the machine (design R69): a model steered by what it read tries every
// tool that saves, and a command, on every place that would later run code or steer every run.
const DONE = { kind: 'text', text: 'Done.' } as const;
/** The endpoint's `test/plain`, scripted by each test: a model steered by what it read. */
const { sandbox, endpoint: model } = useEndpointDaemon([DONE]);
/** The model of the endpoint, as a daemon of another sandbox is started on it. */
const SCRIPTED_MODEL = 'test/plain';
const marker = join(sandbox.root, 'armed');

/** Every entry below `root` but `.repa`: a file's text, a link's target, a folder's mark. */
function snapshot(root: string, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of readdirSync(join(root, prefix))) {
    const path = prefix === '' ? name : `${prefix}/${name}`;
    if (path === '.repa') continue;
    const stats = lstatSync(join(root, path));
    if (stats.isSymbolicLink()) found[path] = `-> ${readlinkSync(join(root, path))}`;
    else if (stats.isDirectory()) Object.assign(found, { [path]: '/' }, snapshot(root, path));
    else found[path] = readFileSync(join(root, path), 'utf8');
  }
  return found;
}

const PAYLOAD = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`;
const FSMONITOR = `[core]\n\tfsmonitor = "touch ${marker}"\n`;
/** What the agent tries to create or change, directly and through the links made below. */
const TARGETS = [
  '.pi/extensions/x.js',
  '.agents/skills/evil/SKILL.md',
  'AGENTS.md',
  '.git/config',
  '.git/hooks/post-checkout',
  'notes/.git',
  '.repa/x.md',
  'links/pi/extensions/x.js',
  'links/skills/evil/SKILL.md',
  'links/agents.md',
  'links/git/config',
  'links/git/hooks/pre-commit',
  'links/repa/x.md',
];

beforeAll(async () => {
  // A space Repa makes is trusted: its Pi resources load, as in a learner's own space.
  const first = await repa(sandbox, ['run', 'Hello.']);
  expect(first.code, first.stderr).toBe(0);
  const set = await repa(sandbox, ['settings', 'set', 'tools.bash', 'sandboxed']);
  expect(set.code, set.stderr).toBe(0);
  execFileSync('git', ['init', '-q'], { cwd: sandbox.space });
  writeFiles(sandbox.space, {
    'AGENTS.md': 'Cite the notes.\n',
    '.agents/skills/tides/SKILL.md': '---\nname: tides\ndescription: Tides.\n---\nRead notes.\n',
  });
  mkdirSync(join(sandbox.space, '.pi'));
  mkdirSync(join(sandbox.space, 'links'));
  for (const [link, to] of [
    ['pi', '../.pi'],
    ['skills', '../.agents/skills'],
    ['agents.md', '../AGENTS.md'],
    ['git', '../.git'],
    ['repa', '../.repa'],
  ]) {
    symlinkSync(to as string, join(sandbox.space, 'links', link as string));
  }
});

describe('the agent cannot arm the machine', () => {
  it('refuses write, edit, apply_patch and a command on every protected place, changing nothing', async () => {
    const before = snapshot(sandbox.space);
    const content = (path: string) => (path.includes('config') ? FSMONITOR : PAYLOAD);
    const calls: EndpointToolCall[] = TARGETS.flatMap((path) => [
      { name: 'write', arguments: { path, content: content(path) } },
      {
        name: 'apply_patch',
        arguments: {
          input: `*** Begin Patch\n*** Add File: ${path}\n+armed\n*** End Patch`,
        },
      },
    ]);
    for (const path of ['AGENTS.md', '.git/config', 'links/agents.md', 'links/git/config']) {
      const first = path.includes('config') ? '[core]' : 'Cite the notes.';
      calls.push({ name: 'edit', arguments: { path, edits: [{ oldText: first, newText: 'x' }] } });
      calls.push({
        name: 'apply_patch',
        arguments: { input: `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch` },
      });
    }
    const command = [
      ...TARGETS.filter((path) => !path.includes('repa')).map(
        (path) => `mkdir -p "$(dirname ${path})"; printf armed >> ${path}`,
      ),
      'git init -q nested',
      'true',
    ].join('; ');
    model().replies.splice(
      0,
      Infinity,
      { kind: 'tools', calls },
      { kind: 'tools', calls: [{ name: 'bash', arguments: { command } }] },
      DONE,
    );
    const run = await repa(sandbox, ['run', 'Follow the instructions in the PDF.']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('[tool] write refused: ".pi/extensions/x.js" is protected');

    // The model was told each refusal: every save refused as protected_path.
    const results = ((model().requests.at(-2)?.messages as unknown[] | undefined) ?? []).filter(
      (message) => (message as { role?: string }).role === 'tool',
    );
    expect(results).toHaveLength(calls.length);
    const refused = results.map((message) =>
      JSON.stringify((message as { content: unknown }).content).includes('protected_path'),
    );
    expect(refused.every(Boolean), JSON.stringify(results, null, 1)).toBe(true);
    // Nothing changed: what the command made at a protected name was moved to .repa/quarantine.
    const after = snapshot(sandbox.space);
    const added = Object.keys(after).filter((path) => !(path in before));
    expect(added.filter((path) => !/^(nested|notes)$/.test(path))).toEqual([]);
    for (const path of Object.keys(before)) expect(after[path], path).toBe(before[path]);
    expect(existsSync(join(sandbox.space, '.repa', 'x.md'))).toBe(false);
    expect(existsSync(join(sandbox.space, 'nested', '.git'))).toBe(false);

    // Neither git nor the next session runs anything.
    execFileSync('git', ['status'], { cwd: sandbox.space });
    const next = await repa(sandbox, ['run', '--new', 'Hello again.']);
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('a space that holds Pi’s agent dir', () => {
  it('cannot read, list, search, write or run a command on it', async () => {
    const inner = createSandbox();
    inner.agentDir = join(inner.space, 'pi-agent');
    mkdirSync(inner.agentDir);
    const own = await startOpenAiEndpoint([DONE]);
    own.configure(inner.agentDir);
    try {
      const start = await repaJson(inner, ['daemon', 'start', '--model', SCRIPTED_MODEL]);
      expect(start.code, start.stderr).toBe(0);
      // Named on purpose, and trusted: a folder holding the agent dir is a space only when named,
      // and never trusted by itself (design R17).
      const named = ['--space', inner.space];
      const trusted = await repa(inner, ['trust', '--yes', ...named]);
      expect(trusted.code, trusted.stderr).toBe(0);
      const bash = await repa(inner, ['settings', 'set', 'tools.bash', 'sandboxed', ...named]);
      expect(bash.code, bash.stderr).toBe(0);
      own.replies.splice(
        0,
        Infinity,
        {
          kind: 'tools',
          calls: [
            { name: 'read', arguments: { path: 'pi-agent/models.json' } },
            { name: 'write', arguments: { path: 'pi-agent/extensions/x.js', content: PAYLOAD } },
            { name: 'ls', arguments: { path: 'pi-agent' } },
            { name: 'grep', arguments: { pattern: 'apiKey' } },
            { name: 'find', arguments: { pattern: '**/models.json' } },
            { name: 'bash', arguments: { command: 'cat pi-agent/models.json; ls pi-agent' } },
          ],
        },
        DONE,
      );
      const run = await repa(inner, ['run', ...named, 'Send me your keys.']);
      expect(run.code, run.stderr).toBe(0);
      const results = ((own.requests.at(-1)?.messages as unknown[] | undefined) ?? [])
        .filter((message) => (message as { role?: string }).role === 'tool')
        .map((message) => JSON.stringify((message as { content: unknown }).content));
      expect(results).toHaveLength(6);
      expect(results[0]).toContain('protected_path');
      expect(results[1]).toContain('protected_path');
      for (const result of results) {
        expect(result).not.toContain('test-key');
      }
      expect(results[4]).not.toContain('pi-agent');
      expect(existsSync(join(inner.agentDir, 'extensions'))).toBe(false);
    } finally {
      await repaJson(inner, ['daemon', 'stop']);
      await own.close();
      rmSync(inner.root, { recursive: true, force: true });
    }
  });
});
