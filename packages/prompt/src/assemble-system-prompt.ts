import { createHash } from 'node:crypto';
import type {
  PromptSectionName,
  PromptSectionReport,
  PromptSettings,
  SettingsLevel,
} from '@repa/protocol';
import {
  type AssembleSystemPromptInput,
  parseAssembleSystemPromptInput,
} from './assemble-system-prompt-input.js';
import { citationsSection } from './citations-section.js';
import { DEFAULT_BASE_PROMPT } from './default-base-prompt.js';
import { environmentSection } from './environment-section.js';
import { fileChangesSection } from './file-changes-section.js';
import { materialsSection } from './materials-section.js';
import { projectInstructionsSection } from './project-instructions-section.js';
import { skillCatalogSection } from './skill-catalog-section.js';
import { toolsSection } from './tools-section.js';
import { tutorSection } from './tutor-section.js';

/** The assembled system prompt of one run, with the report of every section. */
export interface AssembledSystemPrompt {
  /**
   * The complete prompt: the included sections' texts joined with a blank line.
   * Contract: byte-identical to Pi's `getSystemMessageText({ role: 'system', content: '', sections })`.
   */
  text: string;
  /** The included sections' texts by section name, in prompt order (Pi's `SystemMessage.sections`). */
  sections: Record<string, string>;
  /** One entry per section, in prompt order, included or not, with the reason. */
  report: PromptSectionReport[];
}

/** The read tool: the skill catalog loads skill files with it, the materials section names it,
 * and citations use its line numbers. */
const READ_TOOL = 'read';

interface SectionDecision {
  name: PromptSectionName;
  /** The section's text, or `null` when it is left out. */
  text: string | null;
  reason: string;
}

/** " by space override", " by default", " for this run", or nothing when the level is unknown. */
function by(level: SettingsLevel | 'run' | undefined): string {
  if (level === undefined) return '';
  if (level === 'run') return ' for this run';
  return level === 'default' ? ' by default' : ` by ${level} override`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function decideSections(input: AssembleSystemPromptInput): SectionDecision[] {
  const { settings, environment, skills, projectInstructions, tools } = input;
  const source = (key: keyof PromptSettings) => by(input.sources?.[key]);

  const base: SectionDecision =
    settings.base === null
      ? { name: 'base', text: DEFAULT_BASE_PROMPT, reason: 'built-in base prompt' }
      : settings.base === ''
        ? { name: 'base', text: null, reason: `empty${source('base')}` }
        : { name: 'base', text: settings.base, reason: `set${source('base')}` };

  // The study summary is a part of the learning context: it goes with it.
  const learning = settings.learningContext
    ? `on${source('learningContext')}; study summary ${settings.studySummary === false ? 'off' : 'on'}${source('studySummary')}`
    : `off${source('learningContext')}`;
  const environmentDecision: SectionDecision = settings.environment
    ? {
        name: 'environment',
        text: environmentSection(environment, settings.learningContext, tools),
        reason: `enabled${source('environment')}; learning context ${learning}`,
      }
    : { name: 'environment', text: null, reason: `disabled${source('environment')}` };

  const materials = input.materials ?? [];
  const materialsDecision: SectionDecision =
    materials.length === 0
      ? { name: 'materials', text: null, reason: 'no materials granted to this space' }
      : !tools.some((tool) => tool.name === READ_TOOL)
        ? { name: 'materials', text: null, reason: 'no read tool to read them' }
        : {
            name: 'materials',
            text: materialsSection(materials),
            reason: `${count(materials.length, 'material')} granted to this space`,
          };

  let skillCatalog: SectionDecision;
  if (!settings.skillCatalog) {
    skillCatalog = {
      name: 'skillCatalog',
      text: null,
      reason: `disabled${source('skillCatalog')}`,
    };
  } else if (skills.length === 0) {
    skillCatalog = { name: 'skillCatalog', text: null, reason: 'no skills' };
  } else if (!tools.some((tool) => tool.name === READ_TOOL)) {
    skillCatalog = { name: 'skillCatalog', text: null, reason: 'no read tool to load skills' };
  } else {
    skillCatalog = {
      name: 'skillCatalog',
      text: skillCatalogSection(skills),
      reason: `enabled${source('skillCatalog')}; ${count(skills.length, 'skill')}`,
    };
  }

  let instructions: SectionDecision;
  if (!settings.projectInstructions) {
    instructions = {
      name: 'projectInstructions',
      text: null,
      reason: `disabled${source('projectInstructions')}`,
    };
  } else if (projectInstructions.files.length === 0) {
    instructions = { name: 'projectInstructions', text: null, reason: 'no instruction files' };
  } else if (!projectInstructions.trusted) {
    // Only here was something withheld: the report tells the user the space needs trusting.
    instructions = { name: 'projectInstructions', text: null, reason: 'not trusted' };
  } else {
    instructions = {
      name: 'projectInstructions',
      text: projectInstructionsSection(projectInstructions.files),
      reason: `enabled${source('projectInstructions')}; trusted; ${count(projectInstructions.files.length, 'file')}`,
    };
  }

  const toolsDecision: SectionDecision =
    tools.length === 0
      ? { name: 'tools', text: null, reason: 'no tools' }
      : { name: 'tools', text: toolsSection(tools), reason: count(tools.length, 'enabled tool') };

  const fileChanges: SectionDecision =
    settings.fileChanges === 'off'
      ? { name: 'fileChanges', text: null, reason: `off${source('fileChanges')}` }
      : {
          name: 'fileChanges',
          text: fileChangesSection(settings.fileChanges),
          reason: `${settings.fileChanges}${source('fileChanges')}`,
        };

  let citations: SectionDecision;
  if (settings.citations === false) {
    citations = { name: 'citations', text: null, reason: `off${source('citations')}` };
  } else if (!tools.some((tool) => tool.name === READ_TOOL)) {
    citations = { name: 'citations', text: null, reason: 'no read tool to cite from' };
  } else {
    citations = { name: 'citations', text: citationsSection(), reason: `on${source('citations')}` };
  }

  const study = input.study ?? { mode: 'answer' };
  const tutor: SectionDecision =
    study.mode === 'tutor'
      ? { name: 'tutor', text: tutorSection(), reason: `study.mode tutor${by(study.source)}` }
      : { name: 'tutor', text: null, reason: `study.mode answer${by(study.source)}` };

  const append: SectionDecision =
    settings.append === ''
      ? { name: 'append', text: null, reason: `empty${source('append')}` }
      : { name: 'append', text: settings.append, reason: `set${source('append')}` };

  // Contract: this order is the protocol's section order (`promptSectionNameSchema`).
  return [
    base,
    environmentDecision,
    materialsDecision,
    skillCatalog,
    instructions,
    toolsDecision,
    fileChanges,
    citations,
    tutor,
    append,
  ];
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Assemble a run's system prompt from its resolved prompt settings and the facts the caller
 * supplies (R13, R14, R34, R35). Pure and deterministic: it reads no clock, environment or disk.
 * Throws `RepaError('invalid_request')` when the input does not have the documented shape.
 */
export function assembleSystemPrompt(input: AssembleSystemPromptInput): AssembledSystemPrompt {
  const decisions = decideSections(parseAssembleSystemPromptInput(input));
  const report: PromptSectionReport[] = [];
  const sections: Record<string, string> = {};
  for (const { name, text, reason } of decisions) {
    // An included section is never empty: Pi would drop an empty part, and the report would lie.
    const included = text !== null && text.length > 0;
    const shown = included ? text : '';
    report.push({
      name,
      included,
      reason,
      text: shown,
      chars: shown.length,
      sha256: sha256(shown),
    });
    if (included) sections[name] = text;
  }
  return { text: Object.values(sections).join('\n\n'), sections, report };
}
