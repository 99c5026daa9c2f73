// Benchmark 4 — saves: (a) crash-safe saves of 4 KiB files through ContentStore.save (reading
// first for the version) vs a bare temp + fsync + rename + dir-fsync loop in the same folder;
// (b) apply_patch of 100 hunks on files of 2.5k–20k lines, against Pi's own edit tool making the
// same 100 replacements, to show how both grow with the file.
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createEditTool } from '@earendil-works/pi-coding-agent';
import { ContentObserver, ContentStore } from '@repa/content';
import { createContentTools } from '@repa/content/tools';
import { measureSides } from '../lib/compare.mjs';
import { growthRows } from '../lib/growth.mjs';
import { log, progress } from '../lib/progress.mjs';

const FILE_BYTES = 4096;
const FILES = 10;

function payload(fill) {
  return Buffer.alloc(FILE_BYTES, fill);
}

/** The bare crash-safe write: temp file, fsync, rename over the target, fsync the folder. */
async function bareSave(dir, name, bytes) {
  const temp = join(dir, `.${name}.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx', 0o666);
  try {
    await handle.write(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, join(dir, name));
  const folder = await open(dir, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

const fsyncAsync = promisify(fsync);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * The file-system calls of Repa's read and save of one file, with no Repa code around them: the
 * read (the path's parts `lstat`ed, open, `fstat`, read, `fstat`, close, hash), the plan's checks,
 * the intent slot's `pwrite`, the temp file (write, fsync) while the replaced bytes are linked
 * into the history and its log opened, the re-check, the rename, the log line, the folder fsync and
 * the slot cleared. What a save of Repa's shape costs the file system: the rest is Repa's code.
 */
function syscallFloor(root) {
  const dir = join(root, 'floor');
  const history = join(root, '.floor-history');
  const kept = join(history, 'bytes');
  mkdirSync(kept, { recursive: true });
  for (let index = 0; index < FILES; index++)
    writeFileSync(join(dir, `f-${index}.md`), payload(0x61));
  const slot = openSync(join(history, 'slot'), 'w+');
  const record = Buffer.alloc(FILE_BYTES + 800, 0x20);
  let count = 0;
  return async () => {
    count += 1;
    const target = join(dir, `f-${count % FILES}.md`);
    lstatSync(dir, { bigint: true });
    lstatSync(target, { bigint: true });
    const fd = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    fstatSync(fd, { bigint: true });
    const bytes = Buffer.allocUnsafe(FILE_BYTES + 1);
    const length = readSync(fd, bytes, 0, bytes.length, 0);
    fstatSync(fd, { bigint: true });
    closeSync(fd);
    const version = sha256(bytes.subarray(0, length));
    lstatSync(join(root, '.floor-history'), { bigint: true });
    lstatSync(dir, { bigint: true });
    lstatSync(target, { bigint: true });
    const content = payload(0x61 + (count % 20));
    sha256(content);
    writeSync(slot, record, 0, record.length, 0);
    const temp = join(dir, `.f-${count % FILES}.md.${randomUUID()}`);
    const handle = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    writeSync(handle, content);
    const synced = fsyncAsync(handle);
    lstatSync(history, { bigint: true });
    lstatSync(kept, { bigint: true });
    try {
      linkSync(target, join(kept, version));
    } catch {
      lstatSync(join(kept, version), { bigint: true });
    }
    const log = openSync(
      join(history, 'saves.log'),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
    fstatSync(log, { bigint: true });
    await synced;
    closeSync(handle);
    lstatSync(dir, { bigint: true });
    lstatSync(target, { bigint: true });
    renameSync(temp, target);
    writeSync(log, Buffer.alloc(400, 0x41));
    closeSync(log);
    const folder = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    await fsyncAsync(folder);
    closeSync(folder);
    writeSync(slot, record, 0, 256, 0);
  };
}

async function saveThroughput({ scale }) {
  const root = mkdtempSync(join(tmpdir(), 'repa-bench-saves-'));
  const dir = join(root, 'notes');
  mkdirSync(dir);
  const names = Array.from({ length: FILES }, (_, index) => `page-${index}.md`);
  for (const name of names) {
    writeFileSync(join(dir, name), payload(0x61));
    writeFileSync(join(dir, `bare-${name}`), payload(0x61));
    writeFileSync(join(dir, `again-${name}`), payload(0x61));
  }
  mkdirSync(join(root, 'floor'));
  const floor = syscallFloor(root);
  const store = await ContentStore.open({ root });
  let repaCount = 0;
  let bareCount = 0;
  let againCount = 0;
  const rounds = 4;
  const [bare, again, calls, repa] = await measureSides({
    iterations: Math.max(5, Math.round((300 * scale) / rounds)),
    rounds,
    warmup: 5,
    onRound: progress('saves (4 KiB)', rounds),
    sides: [
      {
        name: 'bare temp+fsync+rename+dir-fsync',
        fn: async () => {
          bareCount += 1;
          const name = `bare-${names[bareCount % FILES]}`;
          await bareSave(dir, name, payload(0x61 + (bareCount % 20)));
        },
      },
      {
        // The same bare loop once more, on its own files: the A/A pair (see its row). Repa stays
        // the last side (`bench/profile.mjs saves repa` measures the last one).
        name: 'bare temp+fsync+rename+dir-fsync (again)',
        fn: async () => {
          againCount += 1;
          const name = `again-${names[againCount % FILES]}`;
          await bareSave(dir, name, payload(0x61 + (againCount % 20)));
        },
      },
      { name: "Repa's file-system calls alone", fn: floor },
      {
        name: 'ContentStore.save',
        fn: async () => {
          repaCount += 1;
          const target = `notes/${names[repaCount % FILES]}`;
          const { version } = await store.read(target);
          await store.save([
            { target, content: payload(0x61 + (repaCount % 20)), expectedVersion: version },
          ]);
        },
      },
    ],
  });
  rmSync(root, { recursive: true, force: true });
  const throughput = (stats) => 1000 / stats.median;
  return [
    {
      bench: 'saves',
      case: `crash-safe save of one 4 KiB file (read for the version, then save), ${FILES} files`,
      baselineLabel: 'bare fsync loop',
      baseline: bare,
      candidate: repa,
      higherIsBetter: true,
      ratio: throughput(repa) / throughput(bare),
      ratioLabel: 'throughput',
      // Restated after wave 3: a save keeps the bytes it replaces and records itself for rewind.
      target: { min: 0.6 },
    },
    {
      bench: 'saves',
      case: 'no Repa: the bare loop vs itself, a second identical side in the same rounds (diagnostic: the resolution of the row above)',
      baselineLabel: 'bare fsync loop',
      baseline: bare,
      candidateLabel: 'bare fsync loop',
      candidate: again,
      higherIsBetter: true,
      ratio: throughput(again) / throughput(bare),
      ratioLabel: 'throughput',
      target: null,
    },
    {
      bench: 'saves',
      case: "no Repa code: the file-system calls of Repa's read and save alone, in the same order and overlap (how much of the row above is the file system's)",
      baselineLabel: 'bare fsync loop',
      baseline: bare,
      candidateLabel: 'the calls alone',
      candidate: calls,
      higherIsBetter: true,
      ratio: throughput(calls) / throughput(bare),
      ratioLabel: 'throughput',
      // The file system's share of a save: its calls take at most 1.1× the bare loop's time
      // (throughput ≥ 1 / 1.1).
      target: { min: 0.91 },
    },
  ];
}

const HUNKS = 100;
const SIZES = [
  { lines: 2_500, iterations: 30 },
  { lines: 5_000, iterations: 20 },
  { lines: 10_000, iterations: 14 },
  { lines: 20_000, iterations: 8 },
];

function lineText(index, edited) {
  const base = `line ${String(index).padStart(6, '0')}: the mitochondria is the powerhouse of the cell`;
  return edited ? `${base} (revised)` : base;
}

function fileOf(lines, edited) {
  const text = [];
  for (let index = 0; index < lines; index++) text.push(lineText(index, edited(index)));
  return `${text.join('\n')}\n`;
}

/** The 100 lines a patch changes: evenly spread, never at the edges. */
function changedLines(lines) {
  return Array.from({ length: HUNKS }, (_, index) => Math.floor(((index + 0.5) * lines) / HUNKS));
}

/** A patch that turns the lines in `changed` from one state (`from`) into the other. */
function patchOf(path, changed, from) {
  const out = ['*** Begin Patch', `*** Update File: ${path}`];
  for (const line of changed) {
    out.push('@@');
    for (let context = line - 3; context < line; context++)
      out.push(` ${lineText(context, false)}`);
    out.push(`-${lineText(line, from)}`, `+${lineText(line, !from)}`);
    for (let context = line + 1; context <= line + 3; context++)
      out.push(` ${lineText(context, false)}`);
  }
  out.push('*** End Patch');
  return out.join('\n');
}

/** Pi's edit tool arguments for the same 100 replacements. */
function editsOf(changed, from) {
  return changed.map((line) => ({
    oldText: lineText(line, from),
    newText: lineText(line, !from),
  }));
}

async function patchGrowth({ scale }) {
  const rows = [];
  for (const { lines, iterations } of SIZES) {
    const root = mkdtempSync(join(tmpdir(), 'repa-bench-patch-'));
    const piDir = join(root, 'pi');
    const space = join(root, 'space');
    mkdirSync(piDir);
    mkdirSync(space);
    const changed = changedLines(lines);
    writeFileSync(
      join(space, 'book.md'),
      fileOf(lines, () => false),
    );
    writeFileSync(
      join(piDir, 'book.md'),
      fileOf(lines, () => false),
    );
    const store = await ContentStore.open({ root: space });
    const observer = new ContentObserver(store);
    observer.recordRead(await store.read('book.md'), { partial: false });
    const applyPatch = createContentTools({ store, observer }).find(
      (tool) => tool.name === 'apply_patch',
    );
    if (!applyPatch) throw new Error('apply_patch tool missing');
    const edit = createEditTool(piDir);
    // Each sample flips the 100 lines: even samples add "(revised)", odd ones remove it.
    const forward = patchOf('book.md', changed, false);
    const backward = patchOf('book.md', changed, true);
    const editsForward = editsOf(changed, false);
    const editsBackward = editsOf(changed, true);
    let repaState = false;
    let piState = false;
    const rounds = 2;
    const [pi, repa] = await measureSides({
      iterations: Math.max(2, Math.round((iterations * scale) / rounds)),
      rounds,
      warmup: 2,
      onRound: progress(`apply_patch ${lines} lines`, rounds),
      sides: [
        {
          name: `Pi edit tool, 100 edits, ${lines} lines`,
          fn: async () => {
            const result = await edit.execute('bench', {
              path: 'book.md',
              edits: piState ? editsBackward : editsForward,
            });
            if (result.isError) throw new Error('Pi edit failed');
            piState = !piState;
          },
        },
        {
          name: `Repa apply_patch, 100 hunks, ${lines} lines`,
          fn: async () => {
            await applyPatch.execute('bench', { input: repaState ? backward : forward });
            repaState = !repaState;
          },
        },
      ],
    });
    const revised = (readFileSync(join(space, 'book.md'), 'utf8').match(/\(revised\)/g) ?? [])
      .length;
    if (revised !== (repaState ? HUNKS : 0)) throw new Error('apply_patch did not apply');
    rmSync(root, { recursive: true, force: true });
    rows.push({
      bench: 'apply_patch',
      case: `${HUNKS} hunks on a ${lines.toLocaleString('en')}-line file vs Pi edit (${HUNKS} edits)`,
      baselineLabel: 'Pi edit tool',
      size: lines,
      baseline: pi,
      candidate: repa,
      target: null,
    });
  }
  return [...rows, ...growthRows('apply_patch', rows, { unit: 'lines' })];
}

/** Runs benchmark 4 and returns its table rows. */
export async function saves({ scale = 1 } = {}) {
  log('saves: 4 KiB crash-safe saves');
  const throughputRows = await saveThroughput({ scale });
  log('saves: apply_patch growth');
  return [...throughputRows, ...(await patchGrowth({ scale }))];
}
