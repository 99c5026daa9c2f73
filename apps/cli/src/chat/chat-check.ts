import { type RepaClient, RepaError } from '@repa/protocol';
import { checkOnce, gradeLine, passageLines } from '../commands/study/index.js';

/** What `/check` needs of the chat, and the first try it waits to follow with a second. */
export interface CheckingChat {
  client: RepaClient;
  space: string;
  sessionId: string;
  context: { stdout: NodeJS.WritableStream };
  /** A first try graded Again or Hard: the tutor run and its grade run (the next /check follows it). */
  pendingCheck?: { tutor: string; after: string } | undefined;
}

/** The session's last tutor reply: its newest succeeded run in tutor mode (not a steer). */
async function lastTutorReply(chat: CheckingChat) {
  const where = { space: chat.space, sessionId: chat.sessionId };
  const { runs } = await chat.client.request('run.list', { ...where, limit: 50, brief: true });
  return runs.find(
    (run) =>
      run.targetRunId === undefined &&
      run.status === 'succeeded' &&
      run.modelSettings?.studyMode === 'tutor',
  );
}

/**
 * `/check ANSWER` (spec R114): checks ANSWER against the passage the session's last tutor reply
 * cites, and says the grade with what was missing; after a first try graded Again or Hard the
 * hint, and the next `/check` is the second try; after the final grade the passage. A refusal is
 * said with its fix; nothing is sent to the model of the conversation.
 */
export async function checkAnswer(
  chat: CheckingChat,
  answer: string,
  say: (text: string) => void,
): Promise<void> {
  if (answer === '') {
    say(
      '/check needs your answer, e.g. /check the moon pulls the oceans; it is graded against the passage the last tutor reply cites.',
    );
    return;
  }
  try {
    const tutor = await lastTutorReply(chat);
    if (tutor === undefined) {
      say(
        'No tutor reply to check in this session. /tutor turns tutor mode on; ask the tutor, then /check YOUR ANSWER.',
      );
      return;
    }
    const pending = chat.pendingCheck?.tutor === tutor.runId ? chat.pendingCheck : undefined;
    say(`[check] grading your ${pending ? 'second try' : 'answer'} against the passage…`);
    const after = pending === undefined ? {} : { after: pending.after };
    const graded = await checkOnce(chat.client, { runId: tutor.runId, answer, ...after });
    const out = chat.context.stdout;
    say(`[check] ${gradeLine(out, graded)}`);
    if (!graded.final) {
      chat.pendingCheck = { tutor: tutor.runId, after: graded.runId };
      say(`Hint: ${graded.hint ?? ''}`);
      say('Second try: /check YOUR ANSWER again (anything else goes to the tutor as usual).');
      return;
    }
    chat.pendingCheck = undefined;
    if (graded.passage) say(passageLines(out, graded.passage));
    if (graded.answer) {
      say(
        `Recorded in the study log (answer ${graded.answer.id}; repa study override ${graded.answer.id} GRADE gives your own grade).`,
      );
    }
  } catch (error) {
    const repaError = RepaError.fromUnknown(error);
    say(`repa: ${repaError.message} (${repaError.code})\nFix: ${repaError.fix}`);
  }
}
