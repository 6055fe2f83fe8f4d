import { open as openFile } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as yauzl from 'yauzl';

/** A package that is refused; the message is shown to the API caller as failure_reason. */
export class PackageRejected extends Error {}

export interface ZipLimits {
  maxEntries: number;
  /** bytes actually produced by inflating, all entries together */
  maxExpandedBytes: number;
  /** expanded / compressed, per entry (once the entry passes RATIO_FLOOR bytes) and for the whole archive */
  maxRatio: number;
}

/** Below this many expanded bytes a high ratio is harmless (small text files compress very well). */
export const RATIO_FLOOR = 1024 * 1024;

export interface ZipFileEntry {
  /** the validated relative path (forward slashes) */
  name: string;
  entry: yauzl.Entry;
}

/** Check the magic bytes: a local file header (an empty archive has none and is refused too). */
export async function assertZipMagic(path: string): Promise<void> {
  const fh = await openFile(path, 'r');
  try {
    const buf = Buffer.alloc(4);
    const { bytesRead } = await fh.read(buf, 0, 4, 0);
    if (bytesRead === 4 && buf.equals(Buffer.from([0x50, 0x4b, 0x05, 0x06]))) throw new PackageRejected('The zip archive is empty.');
    if (bytesRead < 4 || !buf.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) throw new PackageRejected('The file is not a zip archive.');
  } finally {
    await fh.close();
  }
}

/**
 * Why an entry name is unsafe, or null. Refused: empty names, control characters, backslashes,
 * absolute paths, drive letters, `.`/`..`/empty segments (anything that could leave the package
 * folder or be read differently by another unzip tool).
 */
export function unsafeEntryName(name: string): string | null {
  if (!name) return 'an entry has an empty name';
  if (/[\u0000-\u001f\u007f]/.test(name)) return `the entry name ${JSON.stringify(name)} contains control characters`;
  if (name.includes('\\')) return `the entry name ${JSON.stringify(name)} contains a backslash`;
  if (name.startsWith('/')) return `the entry ${JSON.stringify(name)} has an absolute path`;
  if (/^[A-Za-z]:/.test(name)) return `the entry ${JSON.stringify(name)} has a drive letter`;
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.some((s) => s === '..')) return `the entry ${JSON.stringify(name)} escapes the package folder`;
  if (segments.some((s) => s === '' || s === '.')) return `the entry name ${JSON.stringify(name)} is not a plain relative path`;
  if (Buffer.byteLength(name) > 1024) return 'an entry name is longer than 1024 bytes';
  return null;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/**
 * Reads a zip safely with yauzl (streaming inflate per entry; names, types and counts are checked
 * from the central directory before anything is inflated).
 */
export class SafeZip {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    readonly files: ZipFileEntry[],
    readonly zipBytes: number,
    private readonly limits: ZipLimits,
  ) {}

  private expanded = 0;
  get expandedBytes() {
    return this.expanded;
  }

  static async open(path: string, limits: ZipLimits): Promise<SafeZip> {
    await assertZipMagic(path);
    let zip: yauzl.ZipFile;
    try {
      zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
        yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z))),
      );
    } catch (err) {
      throw new PackageRejected(`The file is not a valid zip archive: ${(err as Error).message}.`);
    }
    try {
      if (zip.entryCount > limits.maxEntries) throw new PackageRejected(`The package has more than ${limits.maxEntries} entries.`);
      const files = await readEntries(zip, limits);
      return new SafeZip(zip, files, zip.fileSize, limits);
    } catch (err) {
      zip.close();
      throw err;
    }
  }

  close() {
    this.zip.close();
  }

  /** The entry's bytes as a stream, inflated lazily; every byte counts against the caps. */
  async stream(f: ZipFileEntry): Promise<Readable> {
    let raw: Readable;
    try {
      raw = await new Promise<Readable>((resolve, reject) => this.zip.openReadStream(f.entry, (err, s) => (err ? reject(err) : resolve(s))));
    } catch (err) {
      throw new PackageRejected(`The entry ${JSON.stringify(f.name)} cannot be read: ${(err as Error).message}.`);
    }
    const limits = this.limits;
    const compressed = Math.max(1, f.entry.compressedSize);
    let entryBytes = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _enc, cb) => {
        entryBytes += chunk.length;
        this.expanded += chunk.length;
        if (this.expanded > limits.maxExpandedBytes) return cb(new PackageRejected(`The package expands to more than ${limits.maxExpandedBytes} bytes.`));
        if (entryBytes > RATIO_FLOOR && entryBytes / compressed > limits.maxRatio) {
          return cb(new PackageRejected(`The entry ${JSON.stringify(f.name)} has a compression ratio above ${limits.maxRatio}:1 (a zip bomb?).`));
        }
        if (this.expanded > RATIO_FLOOR && this.expanded / Math.max(1, this.zipBytes) > limits.maxRatio) {
          return cb(new PackageRejected(`The package has a compression ratio above ${limits.maxRatio}:1 (a zip bomb?).`));
        }
        cb(null, chunk);
      },
    });
    raw.on('error', (err) => counter.destroy(err instanceof PackageRejected ? err : new PackageRejected(`The entry ${JSON.stringify(f.name)} is corrupt: ${err.message}.`)));
    counter.on('close', () => raw.destroy());
    // the consumer (storage) may attach its listeners a tick later (after a mkdir): an early error
    // must not be an unhandled 'error' event; the consumer still sees it through stream.errored
    counter.on('error', () => undefined);
    return raw.pipe(counter);
  }

  /** A whole (small) entry in memory, capped at maxBytes. */
  async read(f: ZipFileEntry, maxBytes: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let n = 0;
    await pipeline(await this.stream(f), async function* (source) {
      for await (const chunk of source) {
        n += (chunk as Buffer).length;
        if (n > maxBytes) throw new PackageRejected(`${f.name} is larger than ${maxBytes} bytes.`);
        chunks.push(chunk as Buffer);
      }
    });
    return Buffer.concat(chunks);
  }
}

function decodeName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  // the Info-ZIP Unicode Path field wins when present and valid; strict: backslashes are kept (and refused)
  return (yauzl as any).getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true) as string;
}

function readEntries(zip: yauzl.ZipFile, limits: ZipLimits): Promise<ZipFileEntry[]> {
  return new Promise((resolve, reject) => {
    const files: ZipFileEntry[] = [];
    const seen = new Set<string>();
    let count = 0;
    let declared = 0;
    const fail = (err: Error) => {
      zip.removeAllListeners('entry');
      zip.removeAllListeners('end');
      reject(err);
    };
    zip.on('error', (err) => fail(err instanceof PackageRejected ? err : new PackageRejected(`The file is not a valid zip archive: ${err.message}.`)));
    zip.on('end', () => resolve(files));
    zip.on('entry', (entry: yauzl.Entry) => {
      count++;
      if (count > limits.maxEntries) return fail(new PackageRejected(`The package has more than ${limits.maxEntries} entries.`));
      const name = decodeName(entry);
      const bad = unsafeEntryName(name);
      if (bad) return fail(new PackageRejected(`Unsafe zip entry: ${bad}.`));
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (mode === S_IFLNK) return fail(new PackageRejected(`Unsafe zip entry: ${JSON.stringify(name)} is a symbolic link.`));
      if (mode !== 0 && mode !== S_IFREG && mode !== S_IFDIR) return fail(new PackageRejected(`Unsafe zip entry: ${JSON.stringify(name)} is not a regular file.`));
      if (entry.generalPurposeBitFlag & 0x1) return fail(new PackageRejected(`The entry ${JSON.stringify(name)} is encrypted.`));
      const isDir = name.endsWith('/') || mode === S_IFDIR;
      if (!isDir) {
        const key = name.toLowerCase();
        if (seen.has(key)) return fail(new PackageRejected(`The package holds ${JSON.stringify(name)} twice.`));
        seen.add(key);
        // the declared size is only a hint to fail early; the real cap is counted while inflating
        declared += entry.uncompressedSize;
        if (declared > limits.maxExpandedBytes) return fail(new PackageRejected(`The package expands to more than ${limits.maxExpandedBytes} bytes.`));
        files.push({ name, entry });
      }
      zip.readEntry();
    });
    zip.readEntry();
  });
}
