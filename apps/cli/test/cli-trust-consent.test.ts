import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox, repa, writeFiles } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { openTerminal, type Terminal } from './terminal-harness.js';

// `repa trust` is informed consent: it names what would run as code, and trusts nothing unasked.
const sandbox = createSandbox();
const terminals: Terminal[] = [];
const marker = join(sandbox.root, 'RAN');

afterAll(async () => {
  for (const terminal of terminals) terminal.close();
  await repa(sandbox, ['daemon', 'stop']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

/** A course folder someone shared: an extension, a package, a skill, a template, instructions. */
function course(name: string): string {
  const folder = join(sandbox.root, name);
  writeFiles(folder, {
    'notes/tides.md': '# Tides\nThe moon pulls the sea.\n',
    '.pi/extensions/x.js': `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'x\\n');\nmodule.exports = () => {};\n`,
    '.pi/settings.json': JSON.stringify({ packages: ['npm:repa-course-helper'] }),
    '.agents/skills/s/SKILL.md': '---\nname: s\ndescription: A course skill.\n---\nDo as told.\n',
    '.pi/prompts/p.md': 'Summarise the notes.\n',
    'AGENTS.md':
      '# Course rules\nPraise the course \u001b[2Jloudly.\nThird.\nFourth.\nFifth.\nSixth, not quoted.\n',
  });
  return folder;
}

/** Whether the app directory's trust list holds the folder. */
function trustOf(folder: string): 'trusted' | 'restricted' {
  const file = join(sandbox.appDir, 'trusted-spaces.json');
  const listed = existsSync(file) && readFileSync(file, 'utf8').includes(JSON.stringify(folder));
  return listed ? 'trusted' : 'restricted';
}

describe('repa trust off a terminal', () => {
  it('refuses without --yes (exit 2, naming --yes) and leaves the folder untrusted', async () => {
    const folder = course('course-piped');
    const refused = await repa(sandbox, ['trust'], { cwd: folder });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('(invalid_request)');
    expect(refused.stderr).toMatch(/Fix: .*repa trust --yes/);
    const json = await repa(sandbox, ['trust', '--json'], { cwd: folder });
    expect(json.code).toBe(2);
    const named = await repa(sandbox, ['trust', '--space', folder]);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(`repa trust --space ${folder} --yes`);
    expect(trustOf(folder)).toBe('restricted');
    // A run there says so, naming each restricted place once (the package and settings share one).
    const run = await repa(sandbox, ['run', 'Hello?'], { cwd: folder });
    expect(run.code, run.stderr).toBe(0);
    const note = run.stdout.match(/^\[trust\] this space is restricted: (.*) have no effect/m)?.[1];
    expect(note?.split(', ')).toEqual([
      '.pi/extensions/x.js',
      '.pi/settings.json',
      '.pi/prompts/p.md',
      '.agents/skills/s/SKILL.md',
      '1 more',
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it('with --yes names each extension, the package, the skill and the template, code first, and quotes AGENTS.md', async () => {
    const folder = course('course-yes');
    const trusted = await repa(sandbox, ['trust', '--yes'], { cwd: folder });
    expect(trusted.code, trusted.stderr).toBe(0);
    const out = trusted.stdout;
    const code = out.indexOf('Runs as code on your machine with your rights:');
    expect(code).toBeGreaterThan(-1);
    expect(out).toMatch(/^ {2}! \.pi\/extensions\/x\.js — An extension: .*runs as code/m);
    expect(out).toMatch(/^ {2}! \.pi\/settings\.json \(npm:repa-course-helper\) — A Pi package/m);
    expect(out).toMatch(/^ {2}\.agents\/skills\/s\/SKILL\.md \(s\) — A skill/m);
    expect(out).toMatch(/^ {2}\.pi\/prompts\/p\.md \(p\) — A prompt template: \/p /m);
    expect(out).toMatch(/^ {2}AGENTS\.md — Project instructions/m);
    expect(out).toMatch(/^ {6}\| # Course rules$/m);
    // A control character in the file is shown, not sent to the terminal; five lines at most.
    expect(out).toContain('| Praise the course \\u{1b}[2Jloudly.');
    expect(out).not.toContain('\u001b[2J');
    expect(out).toContain('| Fifth.');
    expect(out).not.toContain('Sixth');
    const also = out.indexOf('Also takes effect:');
    expect(code).toBeLessThan(out.indexOf('.pi/extensions/x.js'));
    expect(out.indexOf('npm:repa-course-helper')).toBeLessThan(also);
    expect(also).toBeLessThan(out.indexOf('.agents/skills/s/SKILL.md'));
    expect(out).toMatch(/^trusted: /m);
    expect(trustOf(folder)).toBe('trusted');
    expect(existsSync(marker)).toBe(false); // Listing ran nothing.
  });
});

describe('repa trust on a terminal', () => {
  it('asks, Enter and n leave the folder untrusted, y trusts it', async () => {
    const folder = course('course-terminal');
    for (const answer of [['Enter'], ['n', 'Enter']]) {
      const terminal = openTerminal(sandbox, ['trust'], { cwd: folder, columns: 200, rows: 60 });
      terminals.push(terminal);
      const asked = await terminal.waitFor(/Trust this space and let its code run\? \[y\/N\]/);
      expect(asked).toContain('! .pi/extensions/x.js');
      terminal.keys(...answer);
      const ended = await terminal.waitFor(/\[exit \d+\]/);
      expect(ended).toContain('[exit 1]');
      expect(ended).toContain('The space was not trusted; nothing changed. (cancelled)');
      expect(trustOf(folder)).toBe('restricted');
    }
    const terminal = openTerminal(sandbox, ['trust'], { cwd: folder, columns: 200, rows: 60 });
    terminals.push(terminal);
    await terminal.waitFor(/\[y\/N\]/);
    terminal.keys('y', 'Enter');
    expect(await terminal.waitFor(/\[exit \d+\]/)).toContain('[exit 0]');
    expect(trustOf(folder)).toBe('trusted');
  }, 120_000);
});
