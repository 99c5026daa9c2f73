import { randomUUID } from 'node:crypto';
import type { ContentObserver } from '../observer/index.js';
import type { SearchLimits } from '../search/index.js';
import type { ContentStore } from '../store/index.js';
import type { ToolApprovals } from './tool-approvals.js';

/** Options of {@link createContentTools}. */
export interface ContentToolsOptions {
  /** The space's store; every byte the tools read or write goes through it. */
  store: ContentStore;
  /** This host's observation map: reads record into it, saves check against it. */
  observer: ContentObserver;
  /** Generates an operation id per saving tool call (spec R65). Default: a random UUID. */
  newOperationId?: () => string;
  /** Passed to Pi's read tool: resize images before sending them. Default true. */
  autoResizeImages?: boolean;
  /**
   * The files of the skills the prompt's catalog offers (absolute paths, read at each call): `read`
   * accepts them (and files inside the folder of a `SKILL.md`) read-only and untracked.
   */
  skillFiles?: () => readonly string[];
  /** Per-call bounds of `ls`, `find` and `grep`; defaults in the package README. */
  searchLimits?: Partial<SearchLimits>;
  /**
   * The learner's say over saves (`tools.edits` `ask`): when it is asking, every save waits for
   * approval with its exact diff before anything is written. Default: saves go ahead at once.
   */
  approvals?: ToolApprovals;
  /**
   * The OCR languages of the run (`documents.ocrLanguages`, read at each call) for document pages
   * without a text layer and images read as text (spec R120). Default (or `undefined`): `["eng"]`.
   */
  ocrLanguages?: () => readonly string[] | undefined;
}

/** A new operation id from the options' generator. */
export function operationIdFrom(options: ContentToolsOptions): string {
  return options.newOperationId?.() ?? randomUUID();
}
