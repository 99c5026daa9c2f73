import { describe, expect, it } from 'vitest';
import {
  type AssembleSystemPromptInput,
  assembleSystemPrompt,
  DEFAULT_BASE_PROMPT,
} from './index.js';
import { readGoldenInput } from './test/golden-cases.js';
import { sectionOf, withSettings } from './test/prompt-helpers.js';

describe('assembleSystemPrompt', () => {
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

  describe('tutor', () => {
    it('is in only in tutor mode, its reason naming the mode and where it came from', () => {
      const plain = assembleSystemPrompt(readGoldenInput('defaults'));
      expect(sectionOf(plain.report, 'tutor')).toMatchObject({
        included: false,
        reason: 'study.mode answer',
      });
      const { report, sections } = assembleSystemPrompt(
        withSettings('defaults', (x) => {
          x.study = { mode: 'tutor', source: 'run' };
        }),
      );
      expect(sectionOf(report, 'tutor')).toMatchObject({
        included: true,
        reason: 'study.mode tutor for this run',
      });
      expect(sections.tutor).toContain('hint before an answer');
      expect(Object.keys(sections).slice(-2)).toEqual(['citations', 'tutor']);
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
      // The study summary is a part of the learning context, turned off on its own.
      const input = readGoldenInput('defaults');
      const noSummary = assembleSystemPrompt({
        ...input,
        settings: { ...input.settings, studySummary: false },
        sources: { ...input.sources, studySummary: 'space' },
      });
      expect(sectionOf(noSummary.report, 'environment').reason).toMatch(
        /; learning context on( by default)?; study summary off by space override$/u,
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
});
