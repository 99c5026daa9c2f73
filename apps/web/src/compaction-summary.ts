/** A compaction summary for people: Pi's summary text, and the files its `<read-files>` and `<modified-files>` lists name. */
export interface SummaryParts {
  /** The summary itself (Markdown), without the file lists. */
  text: string;
  /** The files read (and not changed) in the part summarised. */
  read: string[];
  /** The files changed in the part summarised. */
  changed: string[];
}

/** Pi ends a summary with the files touched, in tags written for the model (`<read-files>…`). */
const FILE_LIST = /<(read-files|modified-files)>\n?([\s\S]*?)\n?<\/\1>/gu;

/** Splits Pi's compaction summary into its text and the file lists it ends with. */
export function summaryParts(summary: string): SummaryParts {
  const parts: SummaryParts = { text: '', read: [], changed: [] };
  parts.text = summary
    .replace(FILE_LIST, (_tag, kind: string, body: string) => {
      const files = body
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
      (kind === 'read-files' ? parts.read : parts.changed).push(...files);
      return '';
    })
    .trim();
  return parts;
}
