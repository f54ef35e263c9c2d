import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** `attachment; filename="..."` with the UTF-8 name beside an ASCII one (RFC 6266), for every file the API sends. */
export const attachmentDisposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7E]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * Sends a file that streams (an export, a report CSV link, an export job's file). A reader that
 * takes nothing for `writeTimeoutMs` is cut off: its socket is closed, and the file's stream with
 * it (docs/decisions/0016). The timer runs only while this answer is the socket's; a keep-alive
 * socket falls back to the server's own timeouts afterwards. `fileName` makes it an attachment.
 */
export function sendDownload(
  reply: FastifyReply,
  file: { stream: Readable; contentType: string; fileName?: string; sizeBytes?: number },
  writeTimeoutMs: number,
): FastifyReply {
  reply.raw.setTimeout(writeTimeoutMs, () => reply.raw.destroy());
  // Whatever ended the answer (its end, a reader gone, the timeout), the file goes: a stream the
  // response wraps (compression) would otherwise leave it open, paused, and its place taken.
  reply.raw.once('close', () => file.stream.destroy());
  reply.header('content-type', file.contentType).header('cache-control', 'no-store');
  if (file.fileName !== undefined) reply.header('content-disposition', attachmentDisposition(file.fileName));
  if (file.sizeBytes !== undefined) reply.header('content-length', String(file.sizeBytes));
  // The file's bytes: only the errors have a JSON schema.
  return reply.send(file.stream as never);
}
