/** Where an address points, without reading the object. */
export interface ContentLocation {
  /** Path relative to the space root (`/`-separated, symlinks resolved); for an outside material its absolute path. */
  target: string;
  /** Absolute path on disk. */
  absolutePath: string;
  /** True for an outside material reached through a grant (read-only, never tracked). */
  outside: boolean;
  /** The object's identity, when it has one already. */
  identity?: string;
}

/** The one snapshot a read returns: bytes and the version they have. */
export interface ContentSnapshot extends ContentLocation {
  /** The object's identity (assigned on first read). */
  identity: string;
  /** sha256 hex of `bytes`. */
  version: string;
  /** The whole file. */
  bytes: Buffer;
  /**
   * Cheap change key (device, inode, size, mtime) of the file the bytes came from.
   * @internal
   */
  statKey: string;
  /**
   * When the bytes began to be read (`Date.now()`), the time a stat key is judged by.
   * @internal
   */
  readAt: number;
}
