import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ioError } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { readDataFile, realDirExists, TEMP_MARK, versionOfYielding } from '../files/index.js';
import {
  type ContentLocation,
  parseIdentity,
  parseSpacePath,
  type SpaceResolver,
} from '../space/index.js';
import { type IntentRecord, intentRecordSchema, MAX_RECORD_BYTES } from './intent-record.js';
import { OPERATION_ID, tempPathOf } from './save-planner.js';

/** One file of `.repa/intents/`; `problem` says why it is not trusted. */
export interface FoundRecord {
  name: string;
  path: string;
  record?: IntentRecord;
  problem?: string;
}

/** The most intent records one look at `.repa/intents/` reads (in name order); others wait. */
const MAX_RECORDS = 10_000;

/**
 * Every record in `.repa/intents/`, checked: `problem` says why a record is not trusted
 * (unreadable, or a path, temp, folder or mode the store itself would never have written).
 */
export async function readIntentRecords(space: SpaceResolver): Promise<FoundRecord[]> {
  const { fs } = space;
  const dir = space.intentsDir;
  if (!(await space.repaDirExists()) || !(await realDirExists(fs, dir))) return [];
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    throw ioError(error, `Listing ${dir}`);
  }
  const records: FoundRecord[] = [];
  const files = names.filter((file) => file.endsWith('.json') && !file.includes(TEMP_MARK));
  // Spec R74: a bounded number of records, with a turn of the event loop before each (the
  // file-system calls run on this thread).
  for (const file of files.sort().slice(0, MAX_RECORDS)) {
    await nextTurn();
    const name = file.slice(0, -'.json'.length);
    const path = join(dir, file);
    let record: IntentRecord;
    try {
      if (!(await fs.lstat(path)).isFile()) {
        records.push({ name, path, problem: 'The record is not a plain file.' });
        continue;
      }
      // Opened without waiting or following a link, and never read past its bound (spec R74).
      const bytes = await readDataFile(fs, path, 'intent record', {
        follow: false,
        maxBytes: MAX_RECORD_BYTES,
      });
      if (bytes === undefined) continue;
      record = intentRecordSchema.parse(JSON.parse(bytes.toString('utf8')));
    } catch (error) {
      // A damaged record is quarantined: kept for a person to inspect, never guessed at.
      const tooLarge = RepaError.isInstance(error) && /larger than/u.test(error.message);
      records.push({
        name,
        path,
        problem: tooLarge
          ? `The record is larger than ${MAX_RECORD_BYTES} bytes, more than any save writes.`
          : 'The record is damaged (torn or not a Repa intent record).',
      });
      continue;
    }
    const problem = await problemOf(space, record, name);
    records.push(problem === undefined ? { name, path, record } : { name, path, record, problem });
  }
  return records;
}

/** Why a record cannot be trusted, or `undefined`: every path passes the rules of a tool call. */
async function problemOf(
  space: SpaceResolver,
  record: IntentRecord,
  name: string,
): Promise<string | undefined> {
  if (!OPERATION_ID.test(record.operationId) || record.operationId !== name) {
    return 'The operation id does not match the record file name.';
  }
  if (record.changes.length === 0) return 'The record has no changes.';
  const targets = new Set<string>();
  for (const [position, change] of record.changes.entries()) {
    const shown = JSON.stringify(change.target);
    let location: ContentLocation;
    try {
      if (parseSpacePath(change.target) !== change.target) throw new Error('not canonical');
      location = await space.canonical(change.target);
    } catch {
      return `The target ${shown} is not a safe path inside the space.`;
    }
    if (location.target !== change.target) return `The target ${shown} goes through a symlink.`;
    if (targets.has(change.target)) return `The target ${shown} appears twice.`;
    targets.add(change.target);
    const temp =
      change.version === null
        ? null
        : space.rel(tempPathOf(location.absolutePath, record.operationId, position));
    if (change.temp !== temp) {
      return `The temp file ${JSON.stringify(change.temp)} is not the one this save uses for ${shown}.`;
    }
    if ((change.content === null) !== (change.version === null)) {
      return `The change of ${shown} has bytes and version out of step.`;
    }
    if (
      change.content !== null &&
      (await versionOfYielding(Buffer.from(change.content, 'base64'))) !== change.version
    ) {
      return `The saved bytes of ${shown} do not have the recorded version.`;
    }
    if (change.mode !== null && (change.mode < 0 || (change.mode & ~0o777) !== 0)) {
      return `The mode of ${shown} is not plain permission bits.`;
    }
    if (parseIdentity(change.identity)?.kind !== 'document') {
      return `The identity of ${shown} is not a repa:document identity.`;
    }
    if (change.version === null && change.createdDirs.length > 0) {
      return `The delete of ${shown} lists created folders.`;
    }
    for (const dir of change.createdDirs) {
      try {
        if (
          parseSpacePath(dir) !== dir ||
          !change.target.startsWith(`${dir}/`) ||
          (await space.canonical(dir)).target !== dir
        ) {
          throw new Error('not an ancestor');
        }
      } catch {
        return `The folder ${JSON.stringify(dir)} is not a folder of ${shown} inside the space.`;
      }
    }
  }
  return undefined;
}
