import { probeTimestampStep } from '../files/index.js';
import type { SpaceResolver } from '../space/index.js';

/** Until its file system is probed, a stat key is trusted once its mtime is this old (ns). */
const UNPROBED_WINDOW_NS = 2_000_000_000n;
/**
 * Added to a probed window (ns): `Date.now()`, taken before the bytes are read, is cut to the
 * millisecond.
 */
const WINDOW_MARGIN_NS = 1_000_000n;
/** Probed windows per device of this process (a file system's clock step does not change). */
const probedWindows = new Map<bigint, bigint>();

/**
 * When a stat key of one space stands for the bytes read with it: its mtime must be older than
 * the timestamp window of its device, probed once per device and process.
 */
export class TimestampWindow {
  /** The device of the space root (set when the store opens), for {@link probedWindows}. */
  device: bigint | undefined;
  private probing: Promise<void> | undefined;

  constructor(private readonly space: SpaceResolver) {}

  /**
   * How old (ns) a stat key's mtime must be when it is taken before it stands for the bytes read
   * with it: twice the file system's timestamp step plus a margin once probed, 2 s before.
   */
  get ns(): bigint {
    const probed = this.device === undefined ? undefined : probedWindows.get(this.device);
    return probed ?? UNPROBED_WINDOW_NS;
  }

  /**
   * The window for a file on `device` (the first field of its stat key): the probed one on the
   * space root's device, 2 s on any other (a file system mounted inside the space).
   */
  on(device: string): bigint {
    return device === String(this.device) ? this.ns : UNPROBED_WINDOW_NS;
  }

  /**
   * `key` (a stat key) when its mtime is old enough to stand for the bytes read with it: older than
   * the window of its device ({@link on}) at `takenAt`, the time (`Date.now()`) just before those
   * bytes were read — so any later write gets another mtime. File timestamps are coarse: a
   * same-size change within one tick keeps the stat key. Else `undefined`.
   */
  settledKey(key: string | undefined, takenAt: number): string | undefined {
    if (key === undefined) return undefined;
    const mtime = BigInt(key.slice(key.lastIndexOf(':') + 1));
    const window = this.on(key.slice(0, key.indexOf(':')));
    return BigInt(takenAt) * 1_000_000n - mtime > window ? key : undefined;
  }

  /**
   * Probes the file system's timestamp step once per device and process, in `.repa/` (never
   * created for it); until then, and where it cannot tell, the window stays 2 s.
   */
  async probe(): Promise<void> {
    const device = this.device;
    if (device === undefined || probedWindows.has(device) || this.probing) return this.probing;
    const { fs, repaDir } = this.space;
    this.probing = (async () => {
      if (!(await this.space.repaDirExists().catch(() => false))) return;
      const step = await probeTimestampStep(fs, repaDir);
      // A probe that could not tell is not repeated: the 2 s window stays.
      const window = step === undefined ? UNPROBED_WINDOW_NS : 2n * step + WINDOW_MARGIN_NS;
      probedWindows.set(device, window < UNPROBED_WINDOW_NS ? window : UNPROBED_WINDOW_NS);
    })().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }
}
