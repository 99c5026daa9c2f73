import { isTerminalRunStatus, type RepaClient, RepaError } from '@repa/protocol';
import { rewindLines } from '../commands/runs/index.js';

/** What `/undo` needs of the chat. */
export interface UndoChat {
  client: RepaClient;
  space: string;
  sessionId: string;
  out: NodeJS.WritableStream;
}

/**
 * `/undo` in chat: shows what rewinding the session's last run would restore and refuse (its
 * files and the conversation); `/undo yes` does it. Errors are said, never thrown.
 */
export async function undoLastRun(
  chat: UndoChat,
  line: string,
  say: (text: string) => void,
): Promise<void> {
  try {
    const last = await chat.client
      .request('run.resolve', { run: 'latest', space: chat.space, sessionId: chat.sessionId })
      .then(
        ({ run }) => run,
        (error: unknown) => {
          if (RepaError.isInstance(error) && error.code === 'not_found') return undefined;
          throw error;
        },
      );
    if (last === undefined) {
      say('This session has no run to undo.');
      return;
    }
    if (!isTerminalRunStatus(last.status)) {
      say(`Run ${last.runId} is still ${last.status}; /undo waits until it has ended.`);
      return;
    }
    const confirmed = /^\/undo\s+yes\s*$/iu.test(line);
    const { rewind } = await chat.client.request('run.rewind', {
      runId: last.runId,
      conversation: true,
      ...(confirmed ? {} : { preview: true }),
    });
    say(rewindLines(chat.out, rewind).join('\n'));
    if (!confirmed) say('Type /undo yes to rewind these files and the conversation.');
  } catch (error) {
    const failure = RepaError.fromUnknown(error);
    say(`Nothing was undone: ${failure.message} (${failure.code})\nFix: ${failure.fix}`);
  }
}
