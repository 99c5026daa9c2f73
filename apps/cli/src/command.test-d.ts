// Type tests, checked by `tsc --build`: a command's `run` gets the values of its own option table.
import { defineCommand, SPACE_OPTIONS } from './command.js';

defineCommand({
  words: ['example'],
  summary: 'an example',
  usage: 'example',
  help: '',
  positionals: [0, 0],
  options: {
    ...SPACE_OPTIONS,
    limit: { type: 'string' },
    yes: { type: 'boolean', short: 'y' },
    file: { type: 'string', multiple: true },
  },
  async run(_context, _args, values) {
    const text: string | undefined = values.space ?? values.session ?? values.limit;
    const flag: boolean | undefined = values.yes;
    const files: string[] | undefined = values.file;
    // @ts-expect-error a string option gives no flag
    const notFlag: boolean | undefined = values.limit;
    // @ts-expect-error a flag gives no text
    const notText: string | undefined = values.yes;
    // @ts-expect-error an option the table does not have
    const unknown = values.other;
    return [text, flag, files, notFlag, notText, unknown].length;
  },
});
