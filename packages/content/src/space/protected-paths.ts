/** The folder inside every space that belongs to Repa itself. */
export const REPA_FOLDER = '.repa';

/**
 * The instruction files Pi reads from a folder, in Pi's order (the first that exists wins): given
 * to the model at every run of a trusted space.
 */
export const INSTRUCTION_FILES = [
  'AGENTS.override.md',
  'AGENTS.md',
  'AGENTS.MD',
  'CLAUDE.md',
  'CLAUDE.MD',
] as const;

/** One name that no tool may create, change, rename, delete or rewind into, at any depth. */
export interface ProtectedName {
  /** The name as Pi, git or Repa spell it. */
  name: string;
  /** `hidden`: not even read (Repa's records); `read-only`: read, never written. */
  access: 'hidden' | 'read-only';
  /** What it would let a write do to later runs or to the learner's machine. */
  why: string;
}

/**
 * Every protected name, one line each (design R69): a new kind of file that Pi, git or Repa runs
 * or tells every later run is one more line here. Compared case-insensitively, under the same
 * folding as `.repa` look-alikes, at any depth of a path and of where its links lead.
 */
export const PROTECTED_NAMES: readonly ProtectedName[] = [
  {
    name: REPA_FOLDER,
    access: 'hidden',
    why: "Repa's own records: sessions, learning context, identities, kept history and trust.",
  },
  {
    name: '.git',
    access: 'read-only',
    why: 'git runs what its config and hooks name (core.fsmonitor, hooks/*) at the next git command.',
  },
  {
    name: '.pi',
    access: 'read-only',
    why: "Pi loads its extensions (code run with the learner's rights), packages, settings, skills, prompt templates and SYSTEM.md from it.",
  },
  {
    name: '.agents',
    access: 'read-only',
    why: 'Pi offers its skills to the model at every run.',
  },
  ...INSTRUCTION_FILES.filter((name) => name === name.replace(/MD$/u, 'md')).map(
    (name): ProtectedName => ({
      name,
      access: 'read-only',
      why: 'Pi gives an instruction file to the model at every run.',
    }),
  ),
];
