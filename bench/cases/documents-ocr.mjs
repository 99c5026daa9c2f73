// Benchmark 7, OCR rows (design R120): one scanned page read by Repa (its image taken from the PDF
// and recognised by tesseract in the extraction process) vs the `tesseract` command line on the
// same rendered page, in the same run; the same command line at the extraction process's niceness
// (a diagnostic: on a loaded machine a niced process waits); and the extraction process's peak
// resident size (its OCR command included) while it reads the page.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { ContentStore, readContentText } from '@repa/content';
import { makeScannedPdf, makeTextImage } from '@repa/fixtures';
import { measureSides } from '../lib/compare.mjs';
import { log, progress } from '../lib/progress.mjs';

/** Target: a page in at most 1.5× the command line's time on the same rendered page. */
const TARGET = { max: 1.5 };

/** Debian's tesseract, installed (tesseract-ocr) when absent and the run is root; else undefined. */
function tesseract() {
  const found = () => spawnSync('tesseract', ['--version'], { stdio: 'ignore' }).status === 0;
  if (found()) return 'tesseract';
  if (process.getuid?.() === 0) {
    log(
      'documents: tesseract is absent; installing it from Debian (apt-get install -y tesseract-ocr)',
    );
    spawnSync('apt-get', ['install', '-y', 'tesseract-ocr'], { stdio: 'ignore' });
    if (found()) return 'tesseract';
  }
  return undefined;
}

/** The niceness of Repa's extraction process (extraction-process.ts), which its OCR inherits. */
const EXTRACTION_NICENESS = 10;

/** The command line's text of `file`, one thread as Repa runs it, at `niceness` (default 0). */
function runTesseract(binary, file, niceness = 0) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [file, 'stdout'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    if (niceness !== 0) setPriority(child.pid, niceness);
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.on('close', (code) =>
      code === 0 && text.includes('chloroplasts')
        ? resolve()
        : reject(new Error('tesseract failed')),
    );
  });
}

/** The resident size (KiB) of this process's children and theirs (the extraction process, OCR). */
function childrenKiB() {
  const childrenOf = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
    } catch {
      return [];
    }
  };
  let total = 0;
  const pending = childrenOf(process.pid);
  while (pending.length > 0) {
    const pid = pending.pop();
    try {
      total += Number(
        /VmRSS:\s+(\d+)/u.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0,
      );
    } catch {
      // Gone.
    }
    pending.push(...childrenOf(pid));
  }
  return total;
}

/** The OCR rows of the `documents` bench. */
export async function ocrRows(base, { scale, metric }) {
  const binary = tesseract();
  if (binary === undefined) {
    return [
      metric('OCR of a scanned page vs the tesseract command line', Number.NaN, 'ms', null, {
        note: 'skipped: the tesseract command (Debian package tesseract-ocr) is not installed and could not be installed',
      }),
    ];
  }
  log('documents: OCR of a scanned page vs the tesseract command line');
  const lines = Array.from(
    { length: 24 },
    (_, line) => `Line ${line + 1}: chloroplasts turn light into sugar.`,
  );
  const root = join(base, 'scans');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'scan.pdf'), await makeScannedPdf([{ lines }]));
  const store = await ContentStore.open({ root, appDirectory: join(base, 'scans-app') });
  // The page as Repa draws it (the PDF is sized so that 200 dpi gives back these pixels).
  const png = join(base, 'page.png');
  writeFileSync(png, await makeTextImage(lines));
  const cache = join(base, 'scans-app', 'document-text');
  let peak = 0;
  const repa = async () => {
    rmSync(cache, { recursive: true, force: true });
    const watch = setInterval(() => {
      peak = Math.max(peak, childrenKiB());
    }, 20);
    try {
      const { text } = await readContentText(store, 'scan.pdf', { maxChars: 1_000_000 });
      if (!text.includes('chloroplasts')) throw new Error('the page was not recognised');
    } finally {
      clearInterval(watch);
    }
  };
  const rounds = 2;
  const [baseline, niced, candidate] = await measureSides({
    iterations: Math.max(2, Math.round(3 * scale)),
    rounds,
    warmup: 1,
    onRound: progress('one scanned page, OCR', rounds),
    sides: [
      { name: 'tesseract command line', fn: () => runTesseract(binary, png) },
      {
        name: 'tesseract command line, niceness 10',
        fn: () => runTesseract(binary, png, EXTRACTION_NICENESS),
      },
      { name: 'Repa, no cached text', fn: repa },
    ],
  });
  return [
    {
      bench: 'documents',
      case: 'one scanned page (24 lines, 1000 px wide) by OCR vs the tesseract command line on the same rendered page',
      baselineLabel: 'tesseract (one thread)',
      baseline,
      candidate,
      target: TARGET,
    },
    {
      bench: 'documents',
      case: `the same command line at the extraction process's niceness (${EXTRACTION_NICENESS}) vs at its own (diagnostic: what the niceness alone costs in this minute; 1× on an idle core)`,
      baselineLabel: 'tesseract (one thread)',
      baseline,
      candidate: niced,
      target: null,
    },
    metric(
      'the extraction process peak resident size while it reads that page (its OCR command included)',
      peak / 1024,
      'MiB',
      null,
      {
        note: 'sampled every 20 ms from /proc over every Repa side of the pairing',
      },
    ),
  ];
}
