// Pi's own edit and write tools writing crash-safely: the floor for any product that promises a
// save survives a crash.
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  createEditToolDefinition,
  createWriteToolDefinition,
} from '@earendil-works/pi-coding-agent';

/** Writes `content` crash-safely: temp file, write, fsync, rename over `path`, fsync the folder. */
async function writeDurably(path, content) {
  const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx', 0o666);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  const folder = await open(dirname(path), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/** Pi's edit tool in `cwd`, writing through writeDurably. */
export function durableEditTool(cwd) {
  return createEditToolDefinition(cwd, {
    operations: {
      readFile: (path) => readFile(path),
      access: (path) => access(path, constants.R_OK | constants.W_OK),
      writeFile: writeDurably,
    },
  });
}

/** Pi's write tool in `cwd`, likewise. */
export function durableWriteTool(cwd) {
  return createWriteToolDefinition(cwd, {
    operations: {
      writeFile: writeDurably,
      mkdir: (dir) => mkdir(dir, { recursive: true }).then(() => {}),
    },
  });
}
