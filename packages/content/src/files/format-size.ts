/**
 * A size as Pi's tools write it (`512B`, `1.5KB`, `64.0MB`), so the store's search bounds and the
 * tools' notices read like Pi's own messages beside them, without loading Pi.
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
