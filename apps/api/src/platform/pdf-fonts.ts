import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * The fonts every PDF we write uses (docs/decisions/0018-pdf-fonts.md): Noto Sans (Latin, Greek,
 * Cyrillic, Vietnamese), and for the characters it lacks Noto Sans SC (Chinese ideographs, kana)
 * then Noto Sans KR (Hangul). pdfkit embeds only the glyphs a document uses. The CJK files (10 and
 * 6 MB) are read the first time a string needs them, and kept for the process.
 */
const FACES = {
  sans: ['noto-sans/400Regular/NotoSans_400Regular.ttf', 'noto-sans/700Bold/NotoSans_700Bold.ttf'],
  sc: ['noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf', 'noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'],
  kr: ['noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf', 'noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'],
} as const;
type Face = keyof typeof FACES;
const FALLBACKS: Face[] = ['sc', 'kr'];

const require = createRequire(import.meta.url);
const files = new Map<string, Buffer>();
const fileOf = (face: Face, bold: boolean): Buffer => {
  const path = FACES[face][bold ? 1 : 0];
  let file = files.get(path);
  if (!file) {
    file = readFileSync(require.resolve(`@expo-google-fonts/${path}`));
    files.set(path, file);
  }
  return file;
};
const parsed = new Map<Face, fontkit.Font>();
/** The regular weight, read by fontkit for its character map and metrics (the bold has the same). */
const metricsOf = (face: Face): fontkit.Font => {
  let font = parsed.get(face);
  if (!font) {
    font = fontkit.create(fileOf(face, false)) as fontkit.Font;
    parsed.set(face, font);
  }
  return font;
};

const fontName = (face: Face, bold: boolean) => `${face}-${bold ? 'bold' : 'regular'}`;
const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

/** Selects a face for the next text, registering it with this document on first use. */
function useFace(doc: PDFKit.PDFDocument, face: Face, bold: boolean): PDFKit.PDFDocument {
  const name = fontName(face, bold);
  let names = registered.get(doc);
  if (!names) {
    names = new Set();
    registered.set(doc, names);
  }
  if (!names.has(name)) {
    doc.registerFont(name, fileOf(face, bold));
    names.add(name);
  }
  return doc.font(name);
}

/** Characters that go with the run they are in: spaces, joiners, combining marks. */
const NEUTRAL = /^(?:\s|\p{M}|\u200c|\u200d|[\ufe00-\ufe0f])$/u;

interface Run {
  face: Face;
  text: string;
}

/** The text cut into runs of one face each: Noto Sans where it has the glyph, else the first fallback that has it. */
function runsOf(text: string): Run[] {
  const sans = metricsOf('sans');
  const runs: Run[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const last = runs[runs.length - 1];
    let face: Face = 'sans';
    if (last && NEUTRAL.test(char)) face = last.face;
    else if (!sans.hasGlyphForCodePoint(code))
      face = FALLBACKS.find((f) => metricsOf(f).hasGlyphForCodePoint(code)) ?? 'sans';
    if (last?.face === face) last.text += char;
    else runs.push({ face, text: char });
  }
  return runs;
}

export interface PdfTextOptions extends PDFKit.Mixins.TextOptions {
  bold?: boolean;
}

/**
 * Opens an A4 pdfkit document (pdfkit loaded on first use) whose text is Noto Sans, with no page
 * yet when `autoFirstPage` is false (to measure before choosing the page).
 */
export async function openPdf(options: PDFKit.PDFDocumentOptions): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', ...options, font: null as unknown as string });
  useFace(doc, 'sans', false);
  return doc;
}

/** The width of a line of text at the document's font size, each run in its own face. */
export function widthOf(doc: PDFKit.PDFDocument, text: string, bold = false): number {
  return runsOf(text).reduce((sum, run) => sum + useFace(doc, run.face, bold).widthOfString(run.text), 0);
}

/** The height of a paragraph of text in a box of `options.width`. */
export function heightOf(doc: PDFKit.PDFDocument, text: string, options: PdfTextOptions = {}): number {
  const { bold = false, ...rest } = options;
  const runs = runsOf(text);
  // A paragraph of several faces is measured in the tallest: close enough to lay out rows.
  const face = runs.find((r) => r.face !== 'sans')?.face ?? 'sans';
  return useFace(doc, face, bold).heightOfString(text, rest);
}

/**
 * Writes text as `doc.text` does, each run in a face that has its characters (so "Łódź", "Zoë Ψ"
 * and "張偉" print as written). One line (`lineBreak: false`) of several faces is placed run by
 * run on one baseline, aligned in its box; a paragraph of several faces flows as continued text.
 */
export function writeText(
  doc: PDFKit.PDFDocument,
  text: string,
  x?: number,
  y?: number,
  options: PdfTextOptions = {},
): PDFKit.PDFDocument {
  const { bold = false, ...rest } = options;
  const runs = runsOf(text);
  if (runs.length <= 1) return useFace(doc, runs[0]?.face ?? 'sans', bold).text(text, x, y, rest);
  const left = x ?? doc.x;
  const top = y ?? doc.y;
  if (rest.lineBreak === false) {
    const total = widthOf(doc, text, bold);
    const box = rest.width ?? total;
    let at = left + (rest.align === 'right' ? box - total : rest.align === 'center' ? (box - total) / 2 : 0);
    // Where a Noto Sans line's baseline falls (pdfkit places text by its top): every run sits on it.
    const size = (doc as unknown as { _fontSize: number })._fontSize;
    const baseline = top + (metricsOf('sans').ascent / metricsOf('sans').unitsPerEm) * size;
    for (const run of runs) {
      useFace(doc, run.face, bold).text(run.text, at, baseline, { lineBreak: false, baseline: 'alphabetic' });
      at += doc.widthOfString(run.text);
    }
    doc.x = left;
    doc.y = top + doc.currentLineHeight(true);
    return doc;
  }
  runs.forEach((run, k) => {
    const last = k === runs.length - 1;
    useFace(doc, run.face, bold);
    if (k === 0) doc.text(run.text, left, top, { ...rest, continued: !last });
    else doc.text(run.text, { ...rest, continued: !last });
  });
  return doc;
}
