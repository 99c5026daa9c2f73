import { createHash } from 'node:crypto';
import { RepaError } from '@repa/protocol';
import { promptSectionNameSchema } from '@repa/protocol/schemas';
import { describe, expect, it } from 'vitest';
import { assembleSystemPrompt, DEFAULT_BASE_PROMPT } from './index.js';
import {
  readGoldenExpected,
  readGoldenInput,
  UPDATE_GOLDENS,
  writeGoldenExpected,
} from './test/golden-cases.js';
import { probeClock, probeDiskAsync, probeDiskSync, probeEnvironment } from './test/io-probes.js';
import { CASES, deepFreeze, piRender, withSettings } from './test/prompt-helpers.js';
import { withIoTrapped } from './test/with-io-trapped.js';

describe('assembleSystemPrompt', () => {
  describe('golden cases', () => {
    it('has golden cases for defaults, sections off, file-changes modes and edges', () => {
      expect(CASES).toEqual(
        expect.arrayContaining([
          'defaults',
          'space-disables-base',
          'space-disables-environment',
          'space-disables-skill-catalog',
          'space-disables-project-instructions',
          'space-disables-file-changes',
          'space-disables-append',
          'space-disables-learning-context',
          'empty-base',
          'empty-append',
          'untrusted-project-instructions',
          'no-skills',
          'no-tools',
          'file-changes-on-demand',
          'file-changes-notice',
          'file-changes-diff',
        ]),
      );
    });

    it.each(CASES)('%s: matches expected.txt and expected-sections.json', (name) => {
      const { text, report } = assembleSystemPrompt(readGoldenInput(name));
      if (UPDATE_GOLDENS) writeGoldenExpected(name, text, report);
      const expected = readGoldenExpected(name);
      if (!expected)
        throw new Error(`${name}: no goldens; run with UPDATE_GOLDENS=1 to write them`);
      expect(text).toBe(expected.text);
      expect(report).toEqual(expected.report);
    });
  });

  describe('invariants', () => {
    it.each(CASES)('%s: text is what Pi renders from the sections', (name) => {
      const { text, sections } = assembleSystemPrompt(readGoldenInput(name));
      expect(text).toBe(Object.values(sections).filter(Boolean).join('\n\n'));
      expect(text).toBe(piRender(sections));
    });

    it.each(CASES)('%s: chars and sha256 describe each section text', (name) => {
      for (const section of assembleSystemPrompt(readGoldenInput(name)).report) {
        expect(section.chars).toBe(section.text.length);
        expect(section.sha256).toBe(
          createHash('sha256').update(section.text, 'utf8').digest('hex'),
        );
      }
    });

    it.each(CASES)('%s: report and sections follow the protocol order', (name) => {
      const { report, sections } = assembleSystemPrompt(readGoldenInput(name));
      expect(report.map((section) => section.name)).toEqual(promptSectionNameSchema.options);
      const included = report.filter((section) => section.included);
      expect(Object.keys(sections)).toEqual(included.map((section) => section.name));
      for (const section of report) {
        expect(section.included).toBe(section.text.length > 0);
        if (section.included) expect(sections[section.name]).toBe(section.text);
        expect(section.reason).not.toBe('');
      }
      for (const key of Object.keys(sections)) expect(key).not.toMatch(/^\d+$/);
    });

    it.each(CASES)('%s: tagged sections are self-delimiting', (name) => {
      const { sections } = assembleSystemPrompt(readGoldenInput(name));
      const tags: Record<string, string> = {
        environment: 'environment',
        skillCatalog: 'skill_catalog',
        projectInstructions: 'project_instructions',
        tools: 'tools',
        fileChanges: 'file_changes',
        citations: 'citations',
      };
      for (const [name, tag] of Object.entries(tags)) {
        const text = sections[name];
        if (text === undefined) continue;
        expect(text.startsWith(`<${tag}>\n`)).toBe(true);
        expect(text.endsWith(`\n</${tag}>`)).toBe(true);
      }
    });

    it('returns byte-identical output for the same input and never mutates it', () => {
      for (const name of CASES) {
        const input = deepFreeze(readGoldenInput(name));
        const first = assembleSystemPrompt(input);
        const second = assembleSystemPrompt(structuredClone(input));
        expect(second).toEqual(first);
        expect(Buffer.from(second.text)).toEqual(Buffer.from(first.text));
      }
    });
  });

  describe('purity', () => {
    it('the traps really catch clock, environment and disk reads', async () => {
      const disk = withIoTrapped(probeDiskSync);
      expect(disk.reads).toEqual(['fs.readFileSync']);
      const diskAsync = withIoTrapped(probeDiskAsync);
      expect(diskAsync.reads).toEqual(['fs.promises.readFile']);
      expect(withIoTrapped(probeClock).reads).toEqual(['Date.now']);
      expect(withIoTrapped(() => new Date()).reads).toEqual(['new Date()']);
      expect(withIoTrapped(() => performance.now()).reads).toEqual(['performance.now']);
      expect(withIoTrapped(probeEnvironment).reads).toEqual(['process.env.HOME']);
      expect(withIoTrapped(() => process.platform).reads).toEqual(['process.platform']);
      expect(withIoTrapped(() => process.cwd()).reads).toEqual(['process.cwd']);
      // And everything is back afterwards.
      expect(probeDiskSync().length).toBeGreaterThan(0);
      await expect(probeDiskAsync()).resolves.toEqual(expect.any(String));
      expect(probeClock().every(Number.isFinite)).toBe(true);
      expect(probeEnvironment()[1]).toBe(process.platform);
    });

    it.each(CASES)('%s: reads no clock, environment or disk', (name) => {
      const input = readGoldenInput(name);
      const expected = assembleSystemPrompt(input);
      const run = withIoTrapped(() => assembleSystemPrompt(input));
      expect(run.reads).toEqual([]);
      expect(run.error).toBeUndefined();
      expect(run.result).toEqual(expected);
    });
  });

  describe('invalid input', () => {
    it('throws invalid_request naming the bad field', () => {
      const input = withSettings('defaults', (x) => {
        (x.settings as { fileChanges: string }).fileChanges = 'always';
      });
      let thrown: unknown;
      try {
        assembleSystemPrompt(input);
      } catch (error) {
        thrown = error;
      }
      expect(RepaError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'invalid_request' });
      expect((thrown as Error).message).toContain(
        '`settings.fileChanges` must be one of `off`, `on-demand`, `notice` or `diff`, not `always`',
      );
      expect(thrown).toMatchObject({
        details: { issues: [{ path: 'input.settings.fileChanges' }] },
      });
    });
  });
});

describe('DEFAULT_BASE_PROMPT', () => {
  describe('content', () => {
    it('is concise and written for learning work in a space', () => {
      const words = DEFAULT_BASE_PROMPT.split(/\s+/).filter(Boolean).length;
      expect(words).toBeGreaterThanOrEqual(150);
      expect(words).toBeLessThanOrEqual(300);
      expect(DEFAULT_BASE_PROMPT).toContain('learning context');
      expect(DEFAULT_BASE_PROMPT).toContain('Read a file before you edit it');
      expect(DEFAULT_BASE_PROMPT).not.toMatch(/coding/i);
    });
  });
});
