import { inflateSync } from 'node:zlib';

/** The PDF's standard fonts write Windows-1252: Latin-1 but for a few punctuation marks. */
const CP1252: Record<number, string> = {
  128: '€',
  133: '…',
  145: '‘',
  146: '’',
  147: '“',
  148: '”',
  149: '•',
  150: '–',
  151: '—',
};
const cp1252 = { decode: (bytes: Buffer) => [...bytes].map((b) => CP1252[b] ?? String.fromCharCode(b)).join('') };
/** The text a PDF shows: its Flate streams inflated, the strings of its text operators decoded. */
export function pdfText(pdf: Buffer): string {
  const body = pdf.toString('latin1');
  const parts: string[] = [];
  for (const match of body.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = body.indexOf('endstream', start);
    let content = '';
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      content = body.slice(start, end);
    }
    for (const op of content.matchAll(/\[(.*?)\]\s*TJ/gs))
      parts.push(
        [...(op[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)]
          .map((h) => cp1252.decode(Buffer.from(h[1] ?? '', 'hex')))
          .join(''),
      );
  }
  return parts.join('\n');
}
