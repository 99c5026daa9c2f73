import { APPROVAL_QUESTION, type Approver, parseApprovalReply } from '../approvals.js';

/**
 * The terminal chat's approvals (R37): `approver` asks under the transcript, and the next line typed
 * in the editor is the answer while one waits (`answer` takes it: true when it did).
 */
export function chatApprovals(say: (text: string) => void): {
  approver: Approver;
  answer(line: string): boolean;
} {
  let answering: ((line: string) => void) | undefined;
  const approver: Approver = (_request, signal) =>
    new Promise((resolve, reject) => {
      say(APPROVAL_QUESTION);
      const stop = () => {
        answering = undefined;
        reject(signal.reason);
      };
      signal.addEventListener('abort', stop, { once: true });
      answering = (line) => {
        const reply = parseApprovalReply(line);
        if (!reply) return say('Type y, n (a reason may follow it) or a.');
        answering = undefined;
        signal.removeEventListener('abort', stop);
        resolve(reply);
      };
    });
  return {
    approver,
    answer(line) {
      if (!answering) return false;
      say(`you> ${line}`);
      answering(line);
      return true;
    },
  };
}
