// Benchmark 2 — projection: Repa's projectSessionContext (learning-context backfill after
// compaction) vs Pi's own buildSessionProjection() alone, on sessions of 1k, 10k and 50k entries
// with learning-context snapshots and 3 compactions.
import { fauxAssistantMessage, fauxToolCall } from '@earendil-works/pi-ai';
import { SessionManager } from '@earendil-works/pi-coding-agent';
import { appendLearningContextSnapshot, projectSessionContext } from '@repa/context';
import { measureSides } from '../lib/compare.mjs';
import { growthRows } from '../lib/growth.mjs';
import { log, progress } from '../lib/progress.mjs';

const SNAPSHOT_EVERY = 500;

function view(revision) {
  return {
    revision: `rev-${revision}`,
    body: `Learning goal ${revision}: explain photosynthesis and respiration.\n`.repeat(20),
    sources: ['notes/biology.md', 'notes/chemistry.md'],
  };
}

/**
 * A session of exactly `size` entries: user / assistant(tool call) / tool result / assistant
 * exchanges, a file-change custom message now and then, a learning-context snapshot every 500
 * entries and 3 compactions (at 1/4, 1/2 and 3/4) that keep the last ~40 entries. The last
 * compaction's kept segment holds no snapshot, so Repa backfills one (its most expensive path).
 */
export function buildSession(size) {
  const session = SessionManager.inMemory('/space');
  const compactAt = new Set([
    Math.floor(size / 4),
    Math.floor(size / 2),
    Math.floor((size * 3) / 4),
  ]);
  const ids = [];
  let count = 0;
  let turn = 0;
  const push = (id) => {
    ids.push(id);
    count += 1;
  };
  while (count < size) {
    if (compactAt.has(count)) {
      const firstKept = ids[Math.max(0, ids.length - 40)] ?? null;
      push(session.appendCompaction(`Summary before entry ${count}.`, firstKept, 50_000));
      continue;
    }
    // Snapshots land well before each compaction's kept segment.
    if (count % SNAPSHOT_EVERY === 100) {
      push(appendLearningContextSnapshot(session, view(count)));
      continue;
    }
    const step = count % 5;
    turn += step === 0 ? 1 : 0;
    if (step === 0) {
      push(
        session.appendMessage({
          role: 'user',
          content: [{ type: 'text', text: `Question ${turn}: what does chapter ${turn} say?` }],
          timestamp: Date.now(),
        }),
      );
    } else if (step === 1) {
      push(
        session.appendMessage(
          fauxAssistantMessage([fauxToolCall('read', { path: `notes/chapter-${turn}.md` })], {
            stopReason: 'toolUse',
          }),
        ),
      );
    } else if (step === 2) {
      push(
        session.appendMessage({
          role: 'toolResult',
          toolCallId: `call-${turn}`,
          toolName: 'read',
          content: [{ type: 'text', text: `Chapter ${turn}: ${'plants make sugar. '.repeat(10)}` }],
          isError: false,
          timestamp: Date.now(),
        }),
      );
    } else if (step === 3) {
      push(
        session.appendCustomMessageEntry(
          'repa.file-changes',
          `Files you read changed on disk: notes/chapter-${turn}.md`,
          false,
        ),
      );
    } else {
      push(session.appendMessage(fauxAssistantMessage(`Chapter ${turn} explains photosynthesis.`)));
    }
  }
  return session;
}

const SIZES = [
  { size: 1_000, iterations: 600 },
  { size: 10_000, iterations: 200 },
  { size: 50_000, iterations: 40 },
];

/** Stats of samples that each made `count` projections, per projection. */
function perProjection(stats, count) {
  return {
    ...stats,
    median: stats.median / count,
    p95: stats.p95 / count,
    mean: stats.mean / count,
  };
}

/** Runs benchmark 2 and returns its table rows. */
export async function projection({ scale = 1 } = {}) {
  const rows = [];
  for (const { size, iterations } of SIZES) {
    log(`projection: building a session of ${size} entries`);
    const session = buildSession(size);
    const entries = session.getEntries().length;
    const repa = projectSessionContext(session, { learningContext: true });
    const pi = session.buildSessionProjection();
    if (repa.messages.length !== pi.messages.length + 1) {
      throw new Error(`projection ${size}: Repa did not backfill exactly one snapshot`);
    }
    // projectSessionContext keeps the projection of the last leaf it saw: each projection (on both
    // sides alike) first moves the leaf between the last two entries (an O(1) assignment in Pi), so
    // every one is computed. Small sessions take several per sample, above the timer's noise.
    const leaves = [session.getLeafId(), session.getLeafEntry()?.parentId];
    const perSample = Math.max(1, Math.round(20_000 / size));
    let moves = 0;
    const projectEach = (project) => () => {
      for (let index = 0; index < perSample; index++) {
        session.branch(leaves[++moves % 2]);
        project();
      }
    };
    const rounds = 4;
    const [piStats, repaStats] = await measureSides({
      iterations: Math.max(2, Math.round((iterations * scale) / rounds)),
      rounds,
      warmup: 3,
      onRound: progress(`projection ${size}`, rounds),
      sides: [
        {
          name: `Pi buildSessionProjection ${size}`,
          fn: projectEach(() => session.buildSessionProjection()),
        },
        {
          name: `Repa projectSessionContext ${size}`,
          fn: projectEach(() => projectSessionContext(session, { learningContext: true })),
        },
      ],
    });
    rows.push({
      bench: 'projection',
      case: `${entries.toLocaleString('en')} entries, 3 compactions, snapshots`,
      size: entries,
      baseline: perProjection(piStats, perSample),
      candidate: perProjection(repaStats, perSample),
      target: { max: 1.25 },
    });
  }
  return [...rows, ...growthRows('projection', rows)];
}
