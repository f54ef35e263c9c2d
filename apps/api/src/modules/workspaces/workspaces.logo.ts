import { AppError } from '../../platform/errors.js';

/** A logo's largest file: printed beside a name, a few hundred pixels are plenty. */
export const LOGO_MAX_BYTES = 256 * 1024;
/** Its largest and smallest side in pixels. */
export const LOGO_MAX_SIDE = 2048;
export const LOGO_MIN_SIDE = 16;

export interface CheckedLogo {
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const invalid = (message: string) => new AppError('invalid_logo', message, { status: 422, fields: { data: message } });

/** A PNG's size, from its first chunk (IHDR); null when that chunk is not where PNG puts it. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A JPEG's size, from its first start-of-frame marker; null when the markers do not lead to one. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at++;
      continue;
    }
    // Markers without a length: TEM and the restarts.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

/**
 * Checks an uploaded logo by its bytes, whatever its name or declared type says: a PNG or a JPEG
 * (their magic bytes), at most 256 KB, between 16 and 2048 pixels a side. Throws 422 invalid_logo
 * saying what is wrong.
 */
export function checkLogo(bytes: Buffer): CheckedLogo {
  if (bytes.length === 0) throw invalid('The logo file is empty.');
  if (bytes.length > LOGO_MAX_BYTES)
    throw invalid(`The logo is ${Math.ceil(bytes.length / 1024)} KB; it can be at most 256 KB.`);
  const isPng = bytes.subarray(0, 8).equals(PNG);
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!isPng && !isJpeg) throw invalid('The logo must be a PNG or JPEG image.');
  const size = isPng ? pngSize(bytes) : jpegSize(bytes);
  if (!size) throw invalid(`The logo is not a readable ${isPng ? 'PNG' : 'JPEG'} image.`);
  const { width, height } = size;
  if (width < LOGO_MIN_SIDE || height < LOGO_MIN_SIDE || width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE)
    throw invalid(
      `The logo is ${width}×${height} pixels; each side must be between ${LOGO_MIN_SIDE} and ${LOGO_MAX_SIDE} pixels.`,
    );
  return { contentType: isPng ? 'image/png' : 'image/jpeg', width, height };
}
