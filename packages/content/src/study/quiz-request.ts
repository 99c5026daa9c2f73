import {
  citingFormat,
  type Passage,
  parsePassage,
  passageReadArguments,
  passageText,
} from './draft-request.js';

/** What a quiz run was asked: its passage and how many questions. */
export interface QuizRequest {
  passage: Passage;
  count: number;
}

/** The most questions one quiz asks for. */
export const MAX_QUIZ_QUESTIONS = 10;

/** What a grade run was asked besides whose question it grades: the passage, the question, the answer. */
interface GradeAsked {
  /** A second try: the grade run of the first (which graded it Again or Hard). */
  after?: string;
  /** The cited passage (`notes/x.md:12-14`) and its lines. */
  cite: string;
  passage: string;
  /** The question as the learner saw it (a tutor check: as they asked it), and their answer. */
  asked: string;
  answer: string;
}

/**
 * What a grade run was asked: one answer graded against a cited passage, either to question
 * `question` of quiz `quiz`, or to a tutor's reply (`tutor`, the tutor run) against its citation
 * number `citation` (a tutor check, spec R114).
 */
export type GradeRequest = GradeAsked &
  ({ quiz: string; question: string } | { tutor: string; citation: number });

const QUIZ_LINE = /^Write (\d{1,2}) quiz questions? on the passage `([^`]+)`\.$/u;
// The passage's line: its cite (a path may hold parentheses), then its lines as a JSON string.
const PASSAGE_LINE = /^Passage \((.+?)\): (?=")/u;
const GRADE_LINE =
  /^Grade the answer to question `([^`]+)` of quiz `([^`]+)`(?:, a second try after `([^`]+)`)?\.$/u;
const TUTOR_GRADE_LINE =
  /^Grade the answer to the tutor's question of run `([^`]+)`, against its citation (\d{1,4})(?:, a second try after `([^`]+)`)?\.$/u;

/**
 * The request text of a quiz run (recorded as the run's input): its first line names the passage
 * and the count, then the model is told to read the passage with the `read` tool and to write
 * questions in the card format without answers, each citing the line it asks about.
 */
export function quizRequestText(request: QuizRequest): string {
  const { passage, count } = request;
  const format = citingFormat(passage, 'question');
  return [
    `Write ${count} quiz question${count === 1 ? '' : 's'} on the passage \`${passageText(passage)}\`.`,
    '',
    `Read the passage with the read tool, with exactly these arguments: ${JSON.stringify(passageReadArguments(passage))}. Then write ${count} question${count === 1 ? '' : 's'} that test what the passage says, and nothing from anywhere else. The learner answers in their own words; each answer is graded against the lines the question cites, so cite the lines that answer it.`,
    '',
    'Answer with the questions only, one block per question, a blank line between blocks:',
    'Q: the question (it must not contain its answer)',
    format.source,
    ...format.cloze,
    '',
    `${format.citing} Repa keeps only questions whose citation it can verify against what you read, inside the passage asked for.`,
  ].join('\n');
}

/** What a quiz run's request text asked, or `undefined` when the text is no quiz request. */
export function parseQuizRequest(text: string): QuizRequest | undefined {
  const match = QUIZ_LINE.exec(text.split('\n', 1)[0] ?? '');
  if (!match?.[2]) return undefined;
  const count = Number(match[1]);
  if (count < 1 || count > MAX_QUIZ_QUESTIONS) return undefined;
  try {
    return { passage: parsePassage(match[2]), count };
  } catch {
    return undefined;
  }
}

/**
 * The request text of a grade run: its first line names the question and the quiz (or the tutor
 * run and its citation) and (a second try) the first try's grade run; the model is told to grade against the passage only, in two
 * lines; the last three lines hold the passage, the question and the answer, each as JSON.
 */
export function gradeRequestText(request: GradeRequest): string {
  const after = request.after === undefined ? '' : `, a second try after \`${request.after}\``;
  const whose =
    'tutor' in request
      ? `the tutor's question of run \`${request.tutor}\`, against its citation ${request.citation}`
      : `question \`${request.question}\` of quiz \`${request.quiz}\``;
  return [
    `Grade the answer to ${whose}${after}.`,
    '',
    "Grade the learner's answer against the passage below and nothing else: not against what you know, not against an answer of your own. Use no tool.",
    'Answer with exactly two lines:',
    'Grade: Again, Hard, Good or Easy (Again: wrong or empty; Hard: partly right; Good: right; Easy: right and complete)',
    'Missing: "the words of the passage the answer missed, copied exactly" (or Missing: nothing)',
    '',
    `Passage (${request.cite}): ${JSON.stringify(request.passage)}`,
    `Question: ${JSON.stringify(request.asked)}`,
    `Answer: ${JSON.stringify(request.answer)}`,
  ].join('\n');
}

/** A JSON string after `prefix` on `line`, or `undefined`. */
function jsonAfter(line: string | undefined, prefix: RegExp): string | undefined {
  const match = line === undefined ? null : prefix.exec(line);
  if (match === null || line === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(line.slice(match[0].length));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** What a grade run's request text asked, or `undefined` when the text is no grade request. */
export function parseGradeRequest(text: string): GradeRequest | undefined {
  const lines = text.split('\n');
  const quiz = GRADE_LINE.exec(lines[0] ?? '');
  const tutor = quiz ? null : TUTOR_GRADE_LINE.exec(lines[0] ?? '');
  const [passageLine, questionLine, answerLine] = lines.slice(-3);
  const cite = PASSAGE_LINE.exec(passageLine ?? '')?.[1];
  const passage = jsonAfter(passageLine, PASSAGE_LINE);
  const asked = jsonAfter(questionLine, /^Question: /u);
  const answer = jsonAfter(answerLine, /^Answer: /u);
  if (cite === undefined || passage === undefined) return undefined;
  if (asked === undefined || answer === undefined) return undefined;
  const after = (quiz ?? tutor)?.[3];
  const asks = { ...(after === undefined ? {} : { after }), cite, passage, asked, answer };
  if (quiz?.[1] && quiz[2]) return { quiz: quiz[2], question: quiz[1], ...asks };
  if (tutor?.[1] && tutor[2]) return { tutor: tutor[1], citation: Number(tutor[2]), ...asks };
  return undefined;
}
