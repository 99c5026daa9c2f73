import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkTrustedPiFiles } from './trusted-pi-files.js';

describe('checkTrustedPiFiles', () => {
  it('refuses the first unsafe file in Pi’s order (instructions, .pi files, resource folders)', async () => {
    const base = mkdtempSync(join(tmpdir(), 'repa-pi-files-'));
    onTestFinished(() => rmSync(base, { recursive: true, force: true }));
    const space = join(base, 'course');
    mkdirSync(join(space, '.pi', 'skills', 'tides'), { recursive: true });
    writeFileSync(join(base, 'outside.md'), 'Far away.\n');
    symlinkSync(join(base, 'outside.md'), join(space, 'CLAUDE.md'));
    execFileSync('mkfifo', [join(space, '.pi', 'settings.json')]);
    const large = join(space, '.pi', 'skills', 'tides', 'SKILL.md');
    writeFileSync(large, Buffer.alloc(1024 * 1024 + 1, 'x'));
    await expect(checkTrustedPiFiles(space)).rejects.toMatchObject({
      code: 'space_unsafe',
      message: expect.stringContaining('CLAUDE.md is a link leading out of the space'),
    });
    rmSync(join(space, 'CLAUDE.md'));
    await expect(checkTrustedPiFiles(space)).rejects.toMatchObject({
      code: 'space_unsafe',
      details: { path: join('.pi', 'settings.json') },
    });
    rmSync(join(space, '.pi', 'settings.json'));
    await expect(checkTrustedPiFiles(space)).rejects.toMatchObject({
      code: 'data_too_large',
      details: { path: join('.pi', 'skills', 'tides', 'SKILL.md') },
    });
    writeFileSync(large, '---\nname: tides\ndescription: Tides.\n---\n');
    symlinkSync(join(space, 'notes-gone.md'), join(space, 'AGENTS.md')); // Dangling: Pi skips it.
    await expect(checkTrustedPiFiles(space)).resolves.toBeUndefined();
  });

  it('refuses a .pi or .agents that is a link leading out of the space (code loaded from there)', async () => {
    const base = mkdtempSync(join(tmpdir(), 'repa-pi-files-'));
    onTestFinished(() => rmSync(base, { recursive: true, force: true }));
    const space = join(base, 'course');
    mkdirSync(join(base, 'elsewhere', 'extensions'), { recursive: true });
    writeFileSync(join(base, 'elsewhere', 'extensions', 'x.js'), 'run()\n');
    mkdirSync(space);
    for (const name of ['.pi', '.agents']) {
      symlinkSync(join(base, 'elsewhere'), join(space, name));
      await expect(checkTrustedPiFiles(space)).rejects.toMatchObject({
        code: 'space_unsafe',
        message: expect.stringContaining(`${name} is a link leading out of the space`),
      });
      rmSync(join(space, name));
    }
  });
});
