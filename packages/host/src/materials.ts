import { realpath } from 'node:fs/promises';
import { addMaterial, listMaterials, removeMaterial } from '@repa/content';
import type { PromptMaterial } from '@repa/prompt';
import { type MaterialInfo, RepaError } from '@repa/protocol';

/** The roots a space is known by: the path given and its real path (a grant may name either). */
async function rootsOf(space: string): Promise<string[]> {
  const real = await realpath(space).catch(() => space);
  return real === space ? [space] : [space, real];
}

/**
 * The outside materials of the grants file (spec R15) with their state now; with `space`, only
 * those that space may read.
 */
export async function listGrantedMaterials(
  appDirectory: string,
  space?: string,
): Promise<{ revision: string | null; materials: MaterialInfo[] }> {
  return listMaterials(appDirectory, space === undefined ? {} : { space: await rootsOf(space) });
}

/** What {@link grantMaterial} grants: a file, to one space or to every space. */
export interface GrantMaterialInput {
  path: string;
  id?: string | undefined;
  title?: string | undefined;
  space?: string | undefined;
  allSpaces?: boolean | undefined;
  expectedRevision?: string | null | undefined;
}

/**
 * Grants an outside file read-only to one space (its real path is recorded) or to every space;
 * `invalid_request` unless exactly one of `space` and `allSpaces` is given.
 */
export async function grantMaterial(
  appDirectory: string,
  input: GrantMaterialInput,
): Promise<{ revision: string; material: MaterialInfo }> {
  if ((input.space === undefined) === (input.allSpaces !== true)) {
    throw new RepaError('invalid_request', 'Grant a material to one space or to every space.', {
      fix: 'Give either space or allSpaces: true (the CLI: --space DIR or --all-spaces).',
    });
  }
  let spaces: string[] | null = null;
  if (input.space !== undefined) {
    try {
      spaces = [await realpath(input.space)];
    } catch (error) {
      throw new RepaError('not_found', `The space folder ${input.space} does not exist.`, {
        cause: error,
      });
    }
  }
  return addMaterial(appDirectory, {
    path: input.path,
    spaces,
    ...(input.id === undefined ? {} : { id: input.id }),
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.expectedRevision === undefined ? {} : { expectedRevision: input.expectedRevision }),
  });
}

/** Withdraws a material's grant (the file is untouched); `removed: false` when there was none. */
export function withdrawMaterial(
  appDirectory: string,
  id: string,
  expectedRevision?: string | null,
): Promise<{ revision: string | null; removed: boolean }> {
  return removeMaterial(appDirectory, id, expectedRevision);
}

/**
 * What the prompt tells the model of the materials `space` may read (identity, title, type, size,
 * state; never their paths). A grants file that cannot be read tells nothing: the reads of its
 * materials then fail with its error.
 */
export async function promptMaterials(
  appDirectory: string,
  space: string,
): Promise<PromptMaterial[]> {
  try {
    const { materials } = await listGrantedMaterials(appDirectory, space);
    return materials.map((material) => ({
      identity: material.identity,
      title: material.title,
      type: material.type,
      bytes: material.bytes,
      state: material.state,
      currentType: material.currentType,
    }));
  } catch {
    return [];
  }
}
