import type { RewindFile, RewindResult, SaveDiff, V1Params } from '@repa/protocol';
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { describeError } from './panels.js';

/** Asks the daemon for a rewind (`run.rewind`), or its preview. */
export type Rewind = (params: V1Params<'run.rewind'>) => Promise<RewindResult>;

/** `+3 −1`, or why there is no line diff. */
function counts(diff: SaveDiff): string {
  if (diff.note !== undefined && diff.added === 0 && diff.removed === 0) return diff.note;
  return `+${diff.added} −${diff.removed}`;
}

/** The class of one line of a unified diff: added, removed, a hunk head or context. */
function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-file';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  if (line.startsWith('@@')) return 'diff-hunk';
  return 'diff-context';
}

/**
 * One save's change, collapsed (`open`: shown): `+3 −1`, opening to the diff with its changed
 * lines marked.
 */
export function DiffView({ diff, open = false }: { diff: SaveDiff; open?: boolean }) {
  if (diff.diff === undefined) return html`<span class="diff-note">${counts(diff)}</span>`;
  const lines = diff.diff.replace(/\n$/u, '').split('\n');
  return html`<details class="save-diff" open=${open}>
    <summary><span class="diff-counts">${counts(diff)}</span> changed lines</summary>
    <pre class="diff">${lines.map((line) => html`<span class=${lineClass(line)}>${line}${'\n'}</span>`)}</pre>
    ${diff.truncated ? html`<p class="meta">Cut short; <code>repa runs diff</code> shows all of it.</p>` : ''}
  </details>`;
}

/** What undoing does (or did) to one file, in words. */
function fileAction(file: RewindFile, done: boolean): string {
  const verb = (will: string, did: string) => (done ? did : will);
  switch (file.change) {
    case 'created':
      return `${verb('Remove', 'Removed')} ${file.target} (the run created it)`;
    case 'deleted':
      return `${verb('Put back', 'Put back')} ${file.target} (the run deleted it)`;
    case 'moved':
      return `${verb('Move', 'Moved')} ${file.movedTo} back to ${file.target}`;
    default:
      return `${verb('Restore', 'Restored')} ${file.target} as it was before`;
  }
}

/** The files of a rewind: what it restores (with the change it makes) and what it refuses. */
function RewindFiles({
  result,
  force,
}: {
  result: RewindResult;
  /** Offers, per file changed since the run, to put its old version back anyway. */
  force?: { runId: string; rewind: Rewind; onDone: (result: RewindResult) => void } | undefined;
}) {
  const done = !result.preview;
  return html`<ul class="rewind-files">
    ${result.files.map((file) =>
      file.status === 'refused'
        ? html`<li class="rewind-file refused" data-target=${file.target}>
            <strong>${done ? 'Not restored' : 'Will not restore'}</strong> <code>${file.target}</code>:${' '}
            ${file.error?.message} <span class="meta">(${file.error?.code})</span>
            ${
              force && file.error?.code === 'stale_version'
                ? html`<${UndoButton} label="Put its old version back anyway" runId=${force.runId} files=${[file.target]} force=${true} rewind=${force.rewind} onDone=${force.onDone} />`
                : ''
            }
          </li>`
        : file.status === 'unchanged'
          ? html`<li class="rewind-file unchanged" data-target=${file.target}>
              <code>${file.target}</code> is already as it was before.
            </li>`
          : html`<li class="rewind-file will" data-target=${file.target}>
              ${fileAction(file, done)}${file.forced ? ' over a later change' : ''}
              ${file.diff && !done ? html` <${DiffView} diff=${file.diff} />` : ''}
            </li>`,
    )}
    ${result.commands.map(
      (command) => html`<li class="rewind-file command" data-target=${command.target}>
        <code>${command.target}</code> was changed by a command: that cannot be undone.
      </li>`,
    )}
  </ul>`;
}

type UndoState =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'preview'; result: RewindResult }
  | { kind: 'done'; result: RewindResult };

/**
 * An Undo button for a run or one save: it first shows what will be restored and what refused
 * (a preview), and writes only when the learner confirms; then what happened, and an Undo of
 * the undo. For a run it offers to take the conversation back too.
 */
export function UndoButton({
  label,
  runId,
  operationId,
  files,
  force = false,
  rewind,
  onDone,
  offerConversation = false,
}: {
  label: string;
  runId: string;
  operationId?: string | undefined;
  /** Only these files; with `force`, written over a later change (a new save, itself undoable). */
  files?: string[] | undefined;
  force?: boolean;
  rewind: Rewind;
  onDone: (result: RewindResult) => void;
  offerConversation?: boolean;
}) {
  const [state, setState] = useState<UndoState>({ kind: 'idle' });
  const [error, setError] = useState<string | undefined>();
  const [conversation, setConversation] = useState(false);
  const ask = async (preview: boolean) => {
    setError(undefined);
    setState({ kind: 'working' });
    try {
      const result = await rewind({
        runId,
        ...(operationId ? { operationId } : {}),
        ...(files ? { files } : {}),
        ...(force ? { force: true } : {}),
        ...(conversation ? { conversation: true } : {}),
        ...(preview ? { preview: true } : {}),
      });
      setState({ kind: preview ? 'preview' : 'done', result });
      if (!preview) onDone(result);
    } catch (failure) {
      setError(describeError(failure));
      setState({ kind: 'idle' });
    }
  };
  const refusedAll = (result: RewindResult) =>
    !result.files.some((file) => file.status === 'planned') && !conversation;
  return html`<div class="undo" data-undo=${operationId ?? runId}>
    ${
      state.kind === 'idle' || state.kind === 'working'
        ? html`<button type="button" class="undo-button" disabled=${state.kind === 'working'} onClick=${() => void ask(true)}>${label}</button>`
        : ''
    }
    ${
      state.kind === 'preview'
        ? html`<div class="rewind" role="group" aria-label=${`${label}: what it will do`}>
            <p>${refusedAll(state.result) ? 'Nothing can be undone:' : 'Undoing will:'}</p>
            <${RewindFiles} result=${state.result} force=${force ? undefined : { runId, rewind, onDone }} />
            ${
              offerConversation
                ? html`<label class="rewind-conversation"><input type="checkbox" checked=${conversation} onChange=${(
                    event: Event,
                  ) =>
                    setConversation(
                      (event.target as HTMLInputElement).checked,
                    )} /> Also take the conversation back to before this request</label>`
                : ''
            }
            <div class="row">
              <button type="button" class="confirm-undo" disabled=${refusedAll(state.result)} onClick=${() => void ask(false)}>Undo</button>
              <button type="button" class="keep" onClick=${() => setState({ kind: 'idle' })}>Keep as it is</button>
            </div>
          </div>`
        : ''
    }
    ${
      state.kind === 'done'
        ? html`<div class="rewind done" role="status">
            <${RewindFiles} result=${state.result} force=${force ? undefined : { runId, rewind, onDone }} />
            ${state.result.conversation ? html`<p>The conversation continues from before this request.</p>` : ''}
            ${
              state.result.files.some((file) => file.status === 'restored')
                ? html`<${UndoButton} label="Redo (undo the undo)" runId=${state.result.rewindId} rewind=${rewind} onDone=${onDone} />`
                : ''
            }
          </div>`
        : ''
    }
    ${error ? html`<p class="error-text">${error}</p>` : ''}
  </div>`;
}
