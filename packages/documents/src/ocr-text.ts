/**
 * OCR of a page image with Debian's `tesseract` command (spec R120), run by the extraction process
 * as its own child: it inherits the process's niceness, its resident size counts in the process's
 * bound, and it is killed past the page's time bound. One thread (`OMP_THREAD_LIMIT=1`): on a
 * shared machine OpenMP's spinning threads made a page up to four times slower.
 * Contract: this file runs under Node's type stripping in the worker: `.ts` imports, no enums.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ExtractionFailure, type Recognition } from './extracted.ts';

/** The OCR command, as the daemon finds it on its PATH (as the bash tool finds `bwrap`). */
const COMMAND = 'tesseract';

/** The engine found on this machine: its version and its languages, or why there is none. */
type Engine = { path: string; version: string; languages: Set<string> } | undefined;
let engine: Engine | null = null;

function onPath(command: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const path = join(folder, command);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function findEngine(): Engine {
  if (engine !== null) return engine;
  const path = onPath(COMMAND);
  engine = undefined;
  if (path === undefined) return engine;
  const listed = spawnSync(path, ['--list-langs'], { encoding: 'utf8', timeout: 10_000 });
  const said = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const version = /tesseract\s+v?([\d.]+)/u.exec(`${said.stdout}${said.stderr}`)?.[1] ?? '';
  const languages = new Set(
    `${listed.stdout ?? ''}`
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
      .filter(Boolean),
  );
  engine = { path, version, languages };
  return engine;
}

/** Debian's package of a Tesseract language (`chi_sim` → `tesseract-ocr-chi-sim`). */
const languagePackage = (language: string) =>
  `tesseract-ocr-${language.toLowerCase().replace(/_/gu, '-')}`;

/** Why nothing is recognised with no OCR languages (`documents.ocrLanguages` is `[]`). */
const OCR_OFF = 'OCR is turned off (`documents.ocrLanguages` is `[]`)';

/**
 * Throws `ocr_unavailable` when OCR is off (no `languages`), or naming the package to install when
 * the engine or one of `languages` is not on this machine; else the engine's name as a page's
 * recognition tells it.
 */
export function checkOcr(languages: readonly string[]): { path: string; name: string } {
  if (languages.length === 0) {
    throw new ExtractionFailure('ocr_unavailable', OCR_OFF);
  }
  const found = findEngine();
  if (found === undefined) {
    throw new ExtractionFailure(
      'ocr_unavailable',
      'it has pages without a text layer, and OCR needs the tesseract command (Debian package tesseract-ocr), which is not installed',
    );
  }
  const missing = languages.filter((language) => !found.languages.has(language));
  if (missing.length > 0) {
    throw new ExtractionFailure(
      'ocr_unavailable',
      `the OCR language${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed (Debian package${missing.length === 1 ? '' : 's'} ${missing.map(languagePackage).join(', ')})`,
    );
  }
  return { path: found.path, name: `tesseract ${found.version} (${languages.join('+')})`.trim() };
}

/** The text of tesseract's TSV: words joined by line, a blank line between paragraphs. */
function textOfTsv(tsv: string): { text: string; confidence: number } {
  const lines: string[] = [];
  let key = '';
  let paragraph = '';
  let sum = 0;
  let words = 0;
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells[0] !== '5' || cells.length < 12) continue;
    const word = cells.slice(11).join('\t').trim();
    const confidence = Number(cells[10]);
    if (word === '') continue;
    if (confidence >= 0) {
      sum += confidence;
      words += 1;
    }
    const [, , block, par, line] = cells;
    const here = `${block}.${par}.${line}`;
    if (here === key) {
      lines[lines.length - 1] += ` ${word}`;
      continue;
    }
    const para = `${block}.${par}`;
    if (lines.length > 0 && para !== paragraph) lines.push('');
    lines.push(word);
    key = here;
    paragraph = para;
  }
  return { text: lines.join('\n'), confidence: words === 0 ? 0 : Math.round(sum / words) };
}

/**
 * The text tesseract recognises on `image` (PNG, JPEG or PNM bytes) in `languages`, with its mean
 * word confidence. Throws `time_limit` when it runs past `timeoutMs` (it is killed), `ocr_unavailable`
 * when the engine or a language is missing, `damaged` when it fails.
 */
export async function recognise(
  image: Uint8Array,
  languages: readonly string[],
  timeoutMs: number,
): Promise<{ text: string; recognised: Recognition }> {
  const { path, name } = checkOcr(languages);
  const child = spawn(path, ['stdin', 'stdout', '-l', languages.join('+'), 'tsv'], {
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdin.on('error', () => undefined);
  child.stdin.end(image);
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(-1));
    child.on('close', (exit) => resolve(exit));
  });
  clearTimeout(timer);
  if (late) {
    throw new ExtractionFailure(
      'time_limit',
      `recognising it took longer than ${timeoutMs / 1000} s`,
    );
  }
  if (code !== 0) {
    const said = Buffer.concat(err).toString('utf8').trim().split('\n').at(-1) ?? '';
    throw new ExtractionFailure('damaged', `OCR failed (${said || `exit ${code}`})`);
  }
  const { text, confidence } = textOfTsv(Buffer.concat(out).toString('utf8'));
  return { text, recognised: { engine: name, confidence } };
}
