import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** `attachment; filename="..."` with the UTF-8 name beside an ASCII one (RFC 6266), for every file the API sends. */
export const attachmentDisposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7E]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * Whether an Accept-Encoding header takes `encoding` (named, or by `*`, with a q above 0). A name
 * with q=0 is refused even when `*` would take it.
 */
export function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  let star = false;
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const wanted = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === encoding) return wanted;
    if (name.trim() === '*') star = wanted;
  }
  return star;
}

/**
 * Sends a file that streams (an export, a report CSV link, an export job's file). A reader that
 * takes nothing for `writeTimeoutMs` is cut off: its socket is closed, and the file's stream with
 * it (docs/decisions/0016). The timer runs only while this answer is the socket's; a keep-alive
 * socket falls back to the server's own timeouts afterwards. `fileName` makes it an attachment.
 */
export function sendDownload(
  reply: FastifyReply,
  file: { stream: Readable; contentType: string; fileName?: string; sizeBytes?: number; contentEncoding?: 'gzip' },
  writeTimeoutMs: number,
): FastifyReply {
  reply.raw.setTimeout(writeTimeoutMs, () => reply.raw.destroy());
  // Whatever ended the answer (its end, a reader gone, the timeout), the file goes: a stream the
  // response wraps (compression) would otherwise leave it open, paused, and its place taken.
  reply.raw.once('close', () => file.stream.destroy());
  reply.header('content-type', file.contentType).header('cache-control', 'no-store');
  if (file.fileName !== undefined) reply.header('content-disposition', attachmentDisposition(file.fileName));
  if (file.sizeBytes !== undefined) reply.header('content-length', String(file.sizeBytes));
  // Stored encoded (an export job's CSV): sent as it is, never compressed again.
  if (file.contentEncoding) reply.header('content-encoding', file.contentEncoding).header('vary', 'accept-encoding');
  // The file's bytes: only the errors have a JSON schema.
  return reply.send(file.stream as never);
}
