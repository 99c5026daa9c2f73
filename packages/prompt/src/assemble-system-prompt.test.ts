import { createHash } from 'node:crypto';
import { type PromptSectionReport, promptSectionNameSchema, RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import {
  type AssembleSystemPromptInput,
  assembleSystemPrompt,
  DEFAULT_BASE_PROMPT,
} from './index.js';
import {
  goldenCaseNames,
  readGoldenExpected,
  readGoldenInput,
  UPDATE_GOLDENS,
  writeGoldenExpected,
} from './test/golden-cases.js';
import { probeClock, probeDiskAsync, probeDiskSync, probeEnvironment } from './test/io-probes.js';
import { withIoTrapped } from './test/with-io-trapped.js';

const CASES = goldenCaseNames();

/** Pi 0.87.1 `getSystemMessageText` for `{ content: '', sections }`, restated (prompt is Pi-free). */
function piRender(sections: Record<string, string | null>): string {
  return ['', ...Object.values(sections)]
    .filter((part): part is string => part !== null && part.length > 0)
    .join('\n\n');
}

function sectionOf(report: PromptSectionReport[], name: string): PromptSectionReport {
  const entry = report.find((section) => section.name === name);
  if (!entry) throw new Error(`no ${name} section in the report`);
  return entry;
}

function withSettings(
  name: string,
  edit: (input: AssembleSystemPromptInput) => void,
): AssembleSystemPromptInput {
  const input = readGoldenInput(name);
  edit(input);
  return input;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

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

  describe('base and append', () => {
    it('uses the built-in base prompt only for null', () => {
      const { report, text } = assembleSystemPrompt(readGoldenInput('defaults'));
      expect(sectionOf(report, 'base')).toMatchObject({
        included: true,
        text: DEFAULT_BASE_PROMPT,
        reason: 'built-in base prompt',
      });
      expect(text.startsWith(DEFAULT_BASE_PROMPT)).toBe(true);
    });

    it('never falls back to a default for an explicitly empty base or append', () => {
      const input = withSettings('defaults', (x) => {
        x.settings.base = '';
        x.settings.append = '';
        x.sources = { base: 'session', append: 'space' };
      });
      const { report, text, sections } = assembleSystemPrompt(input);
      expect(sectionOf(report, 'base')).toMatchObject({
        included: false,
        text: '',
        reason: 'empty by session override',
      });
      expect(sectionOf(report, 'append')).toMatchObject({
        included: false,
        reason: 'empty by space override',
      });
      expect(text).not.toContain(DEFAULT_BASE_PROMPT.slice(0, 40));
      expect(Object.keys(sections)).not.toContain('base');
    });

    it('keeps base and append verbatim, untagged and untrimmed', () => {
      const base = '  Line one.\n\n  Line two.\n';
      const append = '\nP.S. be brief.  ';
      const { sections, text } = assembleSystemPrompt(
        withSettings('defaults', (x) => {
          x.settings.base = base;
          x.settings.append = append;
        }),
      );
      expect(sections.base).toBe(base);
      expect(sections.append).toBe(append);
      expect(text.startsWith(`${base}\n\n<environment>`)).toBe(true);
      expect(text.endsWith(`</citations>\n\n${append}`)).toBe(true);
    });
  });

  describe('projectInstructions', () => {
    it('is included only when enabled, trusted and with at least one file', () => {
      const reasonFor = (edit: (x: AssembleSystemPromptInput) => void) =>
        sectionOf(
          assembleSystemPrompt(withSettings('trusted-project-instructions', edit)).report,
          'projectInstructions',
        );
      expect(reasonFor(() => {})).toMatchObject({
        included: true,
        reason: 'enabled by application override; trusted; 2 files',
      });
      expect(reasonFor((x) => (x.settings.projectInstructions = false))).toMatchObject({
        included: false,
        reason: 'disabled by application override',
      });
      expect(reasonFor((x) => (x.projectInstructions.trusted = false))).toMatchObject({
        included: false,
        reason: 'not trusted',
      });
      expect(reasonFor((x) => (x.projectInstructions.files = []))).toMatchObject({
        included: false,
        reason: 'no instruction files',
      });
      // Nothing is withheld from an untrusted space without instruction files.
      expect(
        reasonFor((x) => {
          x.projectInstructions.files = [];
          x.projectInstructions.trusted = false;
        }),
      ).toMatchObject({ included: false, reason: 'no instruction files' });
    });

    it('shows each file verbatim under its path, in the given order', () => {
      const { sections } = assembleSystemPrompt(readGoldenInput('trusted-project-instructions'));
      const text = sections.projectInstructions ?? '';
      const first = text.indexOf('<instruction_file path="AGENTS.md">\nWrite notes');
      const second = text.indexOf('<instruction_file path="notes/README.md">');
      expect(first).toBeGreaterThan(0);
      expect(second).toBeGreaterThan(first);
    });
  });

  describe('tools', () => {
    it('describes exactly the enabled tools, in the caller order, with their guidelines', () => {
      const input = withSettings('defaults', (x) => {
        x.tools = [
          { name: 'write', description: 'Write a file.' },
          { name: 'read', description: 'Read a file.', promptGuidelines: ['Read before edit.'] },
        ];
      });
      const text = assembleSystemPrompt(input).sections.tools ?? '';
      expect([...text.matchAll(/<tool name="([^"]+)">/g)].map((m) => m[1])).toEqual([
        'write',
        'read',
      ]);
      expect(text).toContain(
        '<tool name="read">\nRead a file.\nGuidelines:\n- Read before edit.\n',
      );
      expect(text).not.toContain('edit"');
    });

    it('shows a tool’s snippet instead of its description, which the schema already carries', () => {
      const input = withSettings('defaults', (x) => {
        x.tools = [
          {
            name: 'grep',
            description: 'Search file contents. Regexes are RE2. A hit is not a read.',
            snippet: 'Search file contents for patterns',
            promptGuidelines: ['Search before reading many files.'],
          },
          { name: 'read', description: 'Read a file.' },
        ];
      });
      const text = assembleSystemPrompt(input).sections.tools ?? '';
      expect(text).toContain(
        '<tool name="grep">\nSearch file contents for patterns\nGuidelines:\n- Search before reading many files.\n</tool>',
      );
      expect(text).toContain('<tool name="read">\nRead a file.\n</tool>');
      expect(text).not.toContain('RE2');
    });

    it('leaves the section out, and the skill catalog with it, when no read tool is enabled', () => {
      const none = assembleSystemPrompt(readGoldenInput('no-tools')).report;
      expect(sectionOf(none, 'tools')).toMatchObject({ included: false, reason: 'no tools' });
      const noRead = assembleSystemPrompt(
        withSettings('defaults', (x) => {
          x.tools = x.tools.filter((tool) => tool.name !== 'read');
        }),
      ).report;
      expect(sectionOf(noRead, 'skillCatalog')).toMatchObject({
        included: false,
        reason: 'no read tool to load skills',
      });
    });
  });

  describe('skillCatalog', () => {
    it('lists the skills in the caller order with escaped fields', () => {
      const input = withSettings('defaults', (x) => {
        x.skills = [
          { name: 'zeta', description: 'Z & z', location: '/s/z.md' },
          { name: 'alpha', description: 'A <a>', location: '/s/a.md' },
        ];
      });
      const text = assembleSystemPrompt(input).sections.skillCatalog ?? '';
      expect([...text.matchAll(/<name>([^<]+)<\/name>/g)].map((m) => m[1])).toEqual([
        'zeta',
        'alpha',
      ]);
      expect(text).toContain('<description>Z &amp; z</description>');
      expect(text).toContain('<description>A &lt;a&gt;</description>');
    });
  });

  describe('environment', () => {
    it('uses the caller facts and tells the truth about the learning context', () => {
      const on = assembleSystemPrompt(readGoldenInput('defaults')).sections.environment ?? '';
      expect(on).toContain('Space root: /home/ada/spaces/cell-biology\n');
      expect(on).toContain('Date: 2025-06-01\n');
      expect(on).toContain('Learning context: on.');
      const off = assembleSystemPrompt(readGoldenInput('space-disables-learning-context'));
      expect(off.sections.environment).toContain(
        'Learning context: off. No learning-context message is provided',
      );
      expect(off.text).not.toContain('Repa adds it');
      expect(sectionOf(off.report, 'environment').reason).toBe(
        'enabled by default; learning context off by space override',
      );
    });

    it('names the enabled tools that find things, and never lists the space', () => {
      const none = assembleSystemPrompt(readGoldenInput('defaults')).sections.environment ?? '';
      expect(none).not.toContain('find what the space holds');
      const input = readGoldenInput('defaults');
      input.tools = [
        ...input.tools,
        { name: 'grep', description: 'Search file contents.' },
        { name: 'ls', description: 'List a folder.' },
      ];
      const env = assembleSystemPrompt(input).sections.environment ?? '';
      expect(env).toContain(
        "The space's files are not listed here: use ls and grep to find what the space holds before reading it.",
      );
      input.tools = [...input.tools, { name: 'find', description: 'Find files.' }];
      expect(assembleSystemPrompt(input).sections.environment).toContain('use ls, find and grep');
    });

    it('is absent when disabled, and the base prompt then promises no learning context', () => {
      const { report, text } = assembleSystemPrompt(
        withSettings('space-disables-environment', (x) => {
          x.settings.learningContext = false;
        }),
      );
      expect(sectionOf(report, 'environment')).toMatchObject({
        included: false,
        reason: 'disabled by space override',
      });
      expect(text).toContain('If the conversation holds a learning-context message');
      expect(text).not.toMatch(/Repa (may )?adds?\b[^.]*learning/);
    });
  });

  describe('fileChanges', () => {
    it('explains the notice of the active mode, and is absent when off', () => {
      const textFor = (name: string) =>
        assembleSystemPrompt(readGoldenInput(name)).sections.fileChanges;
      expect(textFor('file-changes-on-demand')).toContain('gives only their paths');
      expect(textFor('file-changes-notice')).toContain('modified or deleted');
      expect(textFor('file-changes-diff')).toContain('bounded unified diff');
      expect(textFor('space-disables-file-changes')).toBeUndefined();
      const report = assembleSystemPrompt(readGoldenInput('space-disables-file-changes')).report;
      expect(sectionOf(report, 'fileChanges').reason).toBe('off by space override');
    });
  });

  describe('citations', () => {
    it('asks for the citation form by default, and is gone when turned off', () => {
      const on = assembleSystemPrompt(readGoldenInput('defaults'));
      expect(sectionOf(on.report, 'citations')).toMatchObject({ included: true, reason: 'on' });
      expect(on.sections.citations).toContain('[notes/tides.md:12-18 "pulled by the Moon"]');
      const off = assembleSystemPrompt(
        withSettings('defaults', (input) => {
          input.settings.citations = false;
          input.sources = { citations: 'space' };
        }),
      );
      expect(sectionOf(off.report, 'citations')).toMatchObject({
        included: false,
        reason: 'off by space override',
      });
      expect(off.sections.citations).toBeUndefined();
      expect(off.text).not.toContain('<citations>');
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
      expect((thrown as Error).message).toContain('input.settings.fileChanges');
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
