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
const cp1252 = (bytes: Buffer) => [...bytes].map((b) => CP1252[b] ?? String.fromCharCode(b)).join('');

/** A ToUnicode CMap's glyph codes (two bytes) to their text, as pdfkit writes it (bfrange arrays) or bfchar. */
function cmapOf(source: string): Map<number, string> {
  const map = new Map<number, string>();
  const text = (hex: string) => Buffer.from(hex.replace(/\s/g, ''), 'hex').swap16().toString('utf16le');
  for (const range of source.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*\[([^\]]*)\]/g)) {
    const start = Number.parseInt(range[1] ?? '0', 16);
    let code = start;
    for (const h of (range[3] ?? '').matchAll(/<([0-9a-fA-F\s]*)>/g)) map.set(code++, text(h[1] ?? ''));
  }
  for (const block of source.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const pair of (block[1] ?? '').matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      map.set(Number.parseInt(pair[1] ?? '0', 16), text(pair[2] ?? ''));
  return map;
}

/**
 * The text a PDF of pdfkit shows, one line per text operator: its Flate streams inflated, each TJ
 * array's strings decoded through its font's ToUnicode map (embedded fonts) or as Windows-1252
 * (the standard fonts).
 */
export function pdfText(pdf: Buffer): string {
  const body = pdf.toString('latin1');
  const objects = new Map<number, { dict: string; stream: string }>();
  for (const match of body.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const whole = match[2] ?? '';
    const at = whole.search(/stream\r?\n/);
    let stream = '';
    if (at >= 0) {
      const offset = (match.index ?? 0) + match[0].indexOf(whole) + at;
      const start = body.indexOf('\n', offset) + 1;
      const end = body.indexOf('endstream', start);
      const bytes = pdf.subarray(start, end);
      try {
        stream = inflateSync(bytes).toString('latin1');
      } catch {
        stream = bytes.toString('latin1');
      }
    }
    objects.set(Number(match[1]), { dict: at >= 0 ? whole.slice(0, at) : whole, stream });
  }
  // Font resource names (pdfkit's are unique in a document) to their ToUnicode maps.
  const cmaps = new Map<string, Map<number, string>>();
  for (const { dict } of objects.values())
    for (const fonts of dict.matchAll(/\/Font\s*<<([^>]*)>>/g))
      for (const entry of (fonts[1] ?? '').matchAll(/\/([\w.-]+)\s+(\d+) 0 R/g)) {
        const font = objects.get(Number(entry[2]));
        const unicode = font?.dict.match(/\/ToUnicode (\d+) 0 R/);
        if (unicode) cmaps.set(entry[1] ?? '', cmapOf(objects.get(Number(unicode[1]))?.stream ?? ''));
      }
  const parts: string[] = [];
  for (const { stream } of objects.values()) {
    let cmap: Map<number, string> | undefined;
    for (const op of stream.matchAll(/\/([\w.-]+)\s+[\d.]+\s+Tf|\[((?:[^\]<]|<[0-9a-fA-F]*>)*)\]\s*TJ/g)) {
      if (op[1] !== undefined) {
        cmap = cmaps.get(op[1]);
        continue;
      }
      const strings = [...(op[2] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1] ?? '');
      parts.push(
        strings
          .map((hex) =>
            cmap
              ? (hex.match(/.{4}/g) ?? []).map((code) => cmap?.get(Number.parseInt(code, 16)) ?? '').join('')
              : cp1252(Buffer.from(hex, 'hex')),
          )
          .join(''),
      );
    }
  }
  return parts.join('\n');
}

/** Names teams use, one per script our PDFs must print as written (issue 30). */
export const NAMES = [
  'Łódź Sp. z o.o.',
  'Dvořák & Šťastná s.r.o.',
  'Zoë Ψηφιακή',
  'Иван Петров',
  'Şişli İğdır Ltd.',
  '張偉',
  '田中さくら',
  '김민준',
];
