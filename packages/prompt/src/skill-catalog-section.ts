import type { PromptSkill } from './assemble-system-prompt-input.js';
import { escapeXml, xmlTag } from './xml-text.js';

/** The `skillCatalog` section: the skills in the caller's order, fields XML-escaped. */
export function skillCatalogSection(skills: readonly PromptSkill[]): string {
  const lines = [
    "Skills give specialised instructions for particular tasks. When a task matches a skill's description, use the read tool to load the skill's file before you start, and resolve relative paths in it against the folder of the skill's file.",
    '',
    '<available_skills>',
  ];
  for (const skill of skills) {
    lines.push(
      '  <skill>',
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(skill.description)}</description>`,
      `    <location>${escapeXml(skill.location)}</location>`,
      '  </skill>',
    );
  }
  lines.push('</available_skills>');
  return xmlTag('skill_catalog', lines.join('\n'));
}
