import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A file written whole to a temporary file: its size, and a stream of it that removes the file when closed. */
export interface SpooledFile {
  sizeBytes: number;
  stream: Readable;
}

/**
 * Writes `source` (a file being made: an export reading the database) to a temporary file, and
 * answers once it is all there: whatever holds the database while `source` is read is released
 * then, however slowly the file is sent on afterwards (docs/decisions/0016). The file is unlinked
 * as soon as it is open, so nothing is left behind after the stream closes, a failure or a crash
 * (the open descriptor keeps the bytes until then); where an open file cannot be unlinked
 * (Windows), it goes when the stream closes. A failure of `source` rejects, leaving nothing.
 */
export async function spool(source: Readable, dir = os.tmpdir()): Promise<SpooledFile> {
  const file = path.join(dir, `sundial-spool-${randomUUID()}`);
  // Two descriptors: the writer's closes when the file is written, the reader's when it is read.
  const writer = await fs.promises.open(file, 'wx', 0o600);
  const reader = await fs.promises.open(file, 'r').catch(async (error: unknown) => {
    await writer.close();
    await fs.promises.unlink(file).catch(() => undefined);
    throw error;
  });
  let unlinked = await fs.promises.unlink(file).then(
    () => true,
    () => false,
  );
  const forget = () => {
    if (unlinked) return;
    unlinked = true;
    fs.promises.unlink(file).catch(() => undefined);
  };
  try {
    await pipeline(source, writer.createWriteStream());
    const { size } = await reader.stat();
    const stream = fs.createReadStream('', { fd: reader, start: 0, autoClose: true });
    stream.once('close', forget);
    return { sizeBytes: size, stream };
  } catch (error) {
    source.destroy();
    await writer.close().catch(() => undefined);
    await reader.close().catch(() => undefined);
    forget();
    throw error;
  }
}
