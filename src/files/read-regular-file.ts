import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { HarnessError } from '../errors/harness-error.js';

/** Options of {@link readRegularFile}. */
interface ReadRegularFileOptions {
  /** Largest file accepted, in bytes: a larger one is refused before it is read whole. */
  maxBytes: number;
  /** What the file is, for the message (`load report`, `thresholds file`…). @defaultValue `'file'` */
  what?: string;
}

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer that never comes.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB` : `${bytes} bytes`;
}

/**
 * Reads a file the user named, refusing anything but a regular file (a FIFO,
 * a device such as a symlink to /dev/zero, a folder) and anything larger than
 * `maxBytes`, so that no input can block the harness or fill its memory. The
 * type is judged on the opened file itself, so a symlink is judged by what it
 * points at. Every refusal is an E_FILE_UNREADABLE naming the file and why.
 */
export async function readRegularFile(file: string, options: ReadRegularFileOptions): Promise<Buffer> {
  const what = options.what ?? 'file';
  const refuse = (why: string, cause?: unknown): HarnessError =>
    new HarnessError('E_FILE_UNREADABLE', `cannot read ${what} ${file}: ${why}`, cause !== undefined ? { cause } : undefined);
  let handle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw refuse(code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder, not a regular file' : (code ?? String(err)), err);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw refuse(`it is ${kindOf(st)}, not a regular file`);
    if (st.size > options.maxBytes) throw refuse(`it is ${sizeText(st.size)}, more than the ${sizeText(options.maxBytes)} accepted`);
    // The size is read again as the bytes come: a file that grows while it is read is cut off at the cap, not followed.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, options.maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > options.maxBytes) throw refuse(`it grew past the ${sizeText(options.maxBytes)} accepted while it was read`);
      chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    if (err instanceof HarnessError) throw err;
    throw refuse((err as NodeJS.ErrnoException).code ?? String(err), err);
  } finally {
    await handle.close();
  }
}
