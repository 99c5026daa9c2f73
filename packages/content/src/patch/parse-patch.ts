import { RepaError } from '@repa/protocol';

// The apply_patch format of openai/codex (`codex-rs/apply-patch`, spec R82), implemented from its
// documented grammar and observed behaviour:
//
//   patch  := "*** Begin Patch" NL hunk* "*** End Patch" NL?
//   hunk   := "*** Add File: " path NL ("+" line NL)*
//           | "*** Delete File: " path NL
//           | "*** Update File: " path NL ("*** Move to: " path NL)? chunk+
//   chunk  := ("@@" | "@@ " context) NL (("+" | "-" | " ") line NL | NL)+ ("*** End of File" NL)?
//
// Like Codex it is lenient about whitespace around the markers and hunk headers, accepts a patch
// wrapped in a `<<EOF … EOF` heredoc, and lets the first chunk of an update omit its `@@` line.

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

/** One line of an update chunk: kept (` `), removed (`-`) or added (`+`). */
export interface PatchLine {
  kind: ' ' | '-' | '+';
  text: string;
}

/** A contiguous change inside an updated file. */
export interface UpdateChunk {
  /** The `@@ <context>` line: a line to find first; the change comes after it. */
  context?: string;
  /** The chunk's lines in order. */
  lines: PatchLine[];
  /** `*** End of File`: the old lines must be at the end of the file. */
  endOfFile: boolean;
}

/** One file operation of a patch. */
export type PatchHunk =
  | { type: 'add'; path: string; contents: string }
  | { type: 'delete'; path: string }
  | { type: 'update'; path: string; moveTo?: string; chunks: UpdateChunk[] };

function invalid(message: string, line?: number): RepaError {
  return new RepaError(
    'patch_invalid',
    line === undefined
      ? `Invalid patch: ${message}`
      : `Invalid patch hunk on line ${line}: ${message}`,
  );
}

function checkBoundaries(lines: readonly string[]): string[] {
  const first = lines[0]?.trim();
  const last = lines[lines.length - 1]?.trim();
  if (first !== BEGIN) throw invalid(`The first line of the patch must be '${BEGIN}'`);
  if (last !== END || lines.length < 2)
    throw invalid(`The last line of the patch must be '${END}'`);
  return lines.slice(1, -1);
}

function bodyLines(patch: string): string[] {
  const trimmed = patch.trim();
  const lines = trimmed === '' ? [] : trimmed.split('\n').map((line) => line.replace(/\r$/u, ''));
  try {
    return checkBoundaries(lines);
  } catch (error) {
    const first = lines[0];
    const last = lines[lines.length - 1];
    const heredoc = first === '<<EOF' || first === "<<'EOF'" || first === '<<"EOF"';
    if (heredoc && last?.endsWith('EOF') && lines.length >= 4)
      return checkBoundaries(lines.slice(1, -1));
    throw error;
  }
}

function parseChunk(
  lines: readonly string[],
  lineNumber: number,
  allowMissingContext: boolean,
): { chunk: UpdateChunk; used: number } {
  const head = lines[0] as string;
  let start = 1;
  let context: string | undefined;
  if (head === '@@') {
    context = undefined;
  } else if (head.startsWith('@@ ')) {
    context = head.slice(3);
  } else if (allowMissingContext) {
    start = 0;
  } else {
    throw invalid(
      `Expected update hunk to start with a @@ context marker, got: '${head}'`,
      lineNumber,
    );
  }
  if (start >= lines.length)
    throw invalid('Update hunk does not contain any lines', lineNumber + 1);
  const chunk: UpdateChunk = {
    lines: [],
    endOfFile: false,
    ...(context === undefined ? {} : { context }),
  };
  let used = 0;
  for (const line of lines.slice(start)) {
    if (line === END_OF_FILE) {
      if (used === 0) throw invalid('Update hunk does not contain any lines', lineNumber + 1);
      chunk.endOfFile = true;
      used++;
      break;
    }
    const marker = line[0];
    if (line === '') {
      chunk.lines.push({ kind: ' ', text: '' });
    } else if (marker === ' ' || marker === '-' || marker === '+') {
      chunk.lines.push({ kind: marker, text: line.slice(1) });
    } else {
      if (used === 0) {
        throw invalid(
          `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
          lineNumber + 1,
        );
      }
      break; // the next chunk or hunk starts here
    }
    used++;
  }
  return { chunk, used: used + start };
}

function parseHunk(
  lines: readonly string[],
  lineNumber: number,
): { hunk: PatchHunk; used: number } {
  const header = (lines[0] as string).trim();
  if (header.startsWith(ADD)) {
    let contents = '';
    let used = 1;
    for (const line of lines.slice(1)) {
      if (!line.startsWith('+')) break;
      contents += `${line.slice(1)}\n`;
      used++;
    }
    return { hunk: { type: 'add', path: header.slice(ADD.length), contents }, used };
  }
  if (header.startsWith(DELETE)) {
    return { hunk: { type: 'delete', path: header.slice(DELETE.length) }, used: 1 };
  }
  if (header.startsWith(UPDATE)) {
    const path = header.slice(UPDATE.length);
    let used = 1;
    let moveTo: string | undefined;
    if (lines[1]?.startsWith(MOVE)) {
      moveTo = lines[1].slice(MOVE.length).trim();
      used++;
    }
    const chunks: UpdateChunk[] = [];
    while (used < lines.length) {
      const line = lines[used] as string;
      if (line.trim() === '') {
        used++; // blank lines may separate chunks
        continue;
      }
      if (line.startsWith('*')) break; // the next hunk
      const parsed = parseChunk(lines.slice(used), lineNumber + used, chunks.length === 0);
      chunks.push(parsed.chunk);
      used += parsed.used;
    }
    if (chunks.length === 0)
      throw invalid(`Update file hunk for path '${path}' is empty`, lineNumber);
    return {
      hunk: { type: 'update', path, ...(moveTo === undefined ? {} : { moveTo }), chunks },
      used,
    };
  }
  throw invalid(
    `'${header}' is not a valid hunk header. Valid hunk headers: '${ADD}{path}', '${DELETE}{path}', '${UPDATE}{path}'`,
    lineNumber,
  );
}

/**
 * Parses the text of an apply_patch call into its file operations, in order.
 * Throws `patch_invalid` naming the line that does not parse.
 */
export function parsePatch(patch: string): PatchHunk[] {
  const lines = bodyLines(patch);
  const hunks: PatchHunk[] = [];
  let index = 0;
  while (index < lines.length) {
    const { hunk, used } = parseHunk(lines.slice(index), index + 2);
    hunks.push(hunk);
    index += used;
  }
  return hunks;
}
