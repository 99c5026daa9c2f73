import type { FileChange, SaveReceipt } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { buildFileChangeMessage, FILE_CHANGES_CUSTOM_TYPE } from './file-change-message.js';

const sha = (c: string) => c.repeat(64);
const modified: FileChange = {
  target: 'notes/a.md',
  identity: 'repa:document/a',
  kind: 'modified',
  previousVersion: sha('a'),
  version: sha('b'),
  form: 'diff',
  diff: '@@ -1 +1 @@\n-old\n+new',
  bytes: 4,
};
const deleted: FileChange = {
  target: 'old.md',
  kind: 'deleted',
  previousVersion: sha('c'),
  version: null,
  form: 'location',
  hint: 'the file was deleted',
};
const binary: FileChange = {
  target: 'img.png',
  kind: 'modified',
  previousVersion: sha('d'),
  version: sha('e'),
  form: 'location',
  hint: 'binary content',
};
const report = { changes: [modified, deleted, binary] };

function receipt(
  target: string,
  version: string | null,
  identity = `repa:x/${target}`,
): SaveReceipt {
  return { operationId: 'op', target, identity, previousVersion: null, version, bytes: 1 };
}

describe('buildFileChangeMessage', () => {
  describe('modes', () => {
    it('tells nothing when off', () => {
      expect(buildFileChangeMessage(report, 'off')).toBeNull();
    });

    it('names the files on demand', () => {
      const message = buildFileChangeMessage(report, 'on-demand');
      expect(message).toMatchObject({ customType: FILE_CHANGES_CUSTOM_TYPE, display: true });
      expect(message?.content).toContain('- notes/a.md (modified)');
      expect(message?.content).toContain('- old.md (deleted)');
      expect(message?.content).not.toContain('sha256');
      expect(message?.content).not.toContain('+new');
    });

    it('adds versions and sizes as a notice', () => {
      const content = buildFileChangeMessage(report, 'notice')?.content;
      expect(content).toContain(
        `- notes/a.md (modified; was sha256:${sha('a').slice(0, 12)}; now sha256:${sha('b').slice(0, 12)}; 4 bytes)`,
      );
      expect(content).not.toContain('+new');
    });

    it('says a file this host had not read was not read before', () => {
      const unread: FileChange = {
        target: 'out/made.txt',
        kind: 'modified',
        previousVersion: null,
        version: sha('f'),
        form: 'location',
        hint: 'changed by a command; this host had not read it',
        bytes: 5,
      };
      const content = buildFileChangeMessage({ changes: [unread] }, 'notice')?.content;
      expect(content).toContain(
        `- out/made.txt (modified; not read before; now sha256:${sha('f').slice(0, 12)}; 5 bytes)`,
      );
    });

    it('adds the bounded diff or the location hint in diff mode', () => {
      const content = buildFileChangeMessage(report, 'diff')?.content ?? '';
      expect(content).toContain('```diff\n@@ -1 +1 @@\n-old\n+new\n```');
      expect(content).toContain('img.png (modified; ');
      expect(content).toContain(': no diff, binary content');
      expect(content).toContain('old.md (deleted; ');
    });
  });

  describe('changes the agent already reported', () => {
    it('drops a change whose new version a save receipt of the same object already carries', () => {
      const message = buildFileChangeMessage(report, 'notice', {
        receipts: [receipt('notes/a.md', sha('b')), receipt('old.md', null)],
      });
      expect(message?.details.changes.map((c) => c.target)).toEqual(['img.png']);
    });

    it('matches the object by identity too, but never by version alone', () => {
      const byIdentity = buildFileChangeMessage(report, 'notice', {
        receipts: [receipt('moved.md', sha('b'), 'repa:document/a')],
      });
      expect(byIdentity?.details.changes.map((c) => c.target)).toEqual(['old.md', 'img.png']);
      const otherFile = buildFileChangeMessage(report, 'notice', {
        receipts: [receipt('elsewhere.md', sha('b'))],
      });
      expect(otherFile?.details.changes).toHaveLength(3);
    });

    it('keeps a change to a version newer than the receipt', () => {
      const message = buildFileChangeMessage(report, 'notice', {
        receipts: [receipt('notes/a.md', sha('f'))],
      });
      expect(message?.details.changes).toHaveLength(3);
    });

    it('returns null when nothing is left', () => {
      expect(
        buildFileChangeMessage({ changes: [modified] }, 'diff', {
          receipts: [receipt('notes/a.md', sha('b'))],
        }),
      ).toBeNull();
      expect(buildFileChangeMessage({ changes: [] }, 'notice')).toBeNull();
    });
  });
});
