// One member of a downloaded archive as the readers hand it to safeUnpack, and the bounds every reader keeps.
export interface ArchiveEntry {
  /** As the archive names it (not yet checked: safeUnpack refuses paths that leave the target folder). */
  readonly path: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';
  readonly data?: Buffer;
  /** Symlinks and hardlinks: what they point at. */
  readonly linkTarget?: string;
  /** Unix permission bits when the archive has them. */
  readonly mode?: number;
}

const ARCHIVE_LIMITS = {
  /** Unpacked bytes in all, so a small archive cannot fill the disk. */
  maxUnpackedBytes: 1024 * 1024 * 1024,
  maxEntries: 50_000,
} as const;

/** Counts what a reader unpacks and refuses past the bounds. */
export class UnpackBudget {
  private bytes = 0;
  private entries = 0;

  constructor(private readonly limits: { readonly maxUnpackedBytes: number; readonly maxEntries: number } = ARCHIVE_LIMITS) {}

  /** Bytes still allowed (for decompressors' output bounds). */
  get remainingBytes(): number {
    return this.limits.maxUnpackedBytes - this.bytes;
  }

  take(bytes: number): void {
    this.bytes += bytes;
    this.entries += 1;
    if (this.bytes > this.limits.maxUnpackedBytes) throw new Error(`the archive unpacks to more than ${this.limits.maxUnpackedBytes / 1024 / 1024} MB`);
    if (this.entries > this.limits.maxEntries) throw new Error(`the archive has more than ${this.limits.maxEntries} entries`);
  }
}
