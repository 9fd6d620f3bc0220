import { inflateSync } from 'node:zlib';
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import { PNG } from 'pngjs';

/*
 * Reading the PDFs pdfkit writes, for tests: its objects are plain text (no object streams), so
 * their dictionaries are found by pattern, and their streams sliced out by /Length and inflated.
 */

type PdfStream = { id: number; dict: string; data: Buffer };

function streams(pdf: Buffer): PdfStream[] {
  const source = pdf.toString('latin1');
  const found: PdfStream[] = [];
  const pattern = /(\d+) 0 obj\s*<<((?:(?!endobj)[\s\S])*?)>>\s*stream\r?\n/g;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    const dict = match[2]!;
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    const start = match.index + match[0].length;
    found.push({ id: Number(match[1]), dict, data: pdf.subarray(start, start + length) });
  }
  return found;
}

const decoded = (s: PdfStream) =>
  /\/Filter \/FlateDecode/.test(s.dict) ? inflateSync(s.data) : s.data;
const dictNumber = (dict: string, key: string) =>
  Number(new RegExp(`/${key} (\\d+)`).exec(dict)?.[1]);

/** The number of pages. */
export function pdfPageCount(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;
}

// WinAnsi is Latin-1 but for 0x80–0x9F (Node's TextDecoder drops some of them).
const WIN_ANSI_80 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const winAnsi = {
  decode: (bytes: Buffer) =>
    [...bytes]
      .map((b) => (b >= 0x80 && b <= 0x9f ? WIN_ANSI_80[b - 0x80] : String.fromCharCode(b)))
      .join(''),
};

/**
 * What each font resource (`/F1` …) maps its codes to, for the embedded fonts: their ToUnicode
 * CMaps, as pdfkit writes them (two-byte codes, `bfrange` with an array of UTF-16BE strings).
 * Fonts without one (the standard fonts) are left out: their text is WinAnsi.
 */
function toUnicodeMaps(pdf: Buffer, all: PdfStream[]): Map<string, Map<string, string>> {
  const source = pdf.toString('latin1');
  const byId = new Map(all.map((s) => [s.id, s]));
  const maps = new Map<string, Map<string, string>>();
  for (const [, name, id] of source.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
    // Every page names the same fonts: each is read once.
    if (maps.has(name!)) continue;
    const dict = new RegExp(`(?:^|\\n)${id} 0 obj\\s*<<((?:(?!endobj)[\\s\\S])*?)endobj`).exec(
      source,
    )?.[1];
    const cmapId = dict && /\/ToUnicode (\d+) 0 R/.exec(dict)?.[1];
    const cmap = cmapId ? byId.get(Number(cmapId)) : undefined;
    if (!cmap) continue;
    const map = new Map<string, string>();
    const text = decoded(cmap).toString('latin1');
    const utf16 = (hex: string) => Buffer.from(hex, 'hex').swap16().toString('utf16le');
    for (const [, start, end, list] of text.matchAll(
      /<([0-9a-f]+)> <([0-9a-f]+)> \[([^\]]*)\]/gi,
    )) {
      // A ligature's entry holds its letters apart: <0066 0069> is "fi".
      const targets = [...list!.matchAll(/<([0-9a-f\s]+)>/gi)].map((m) =>
        utf16(m[1]!.replace(/\s/g, '')),
      );
      for (let code = parseInt(start!, 16); code <= parseInt(end!, 16); code++)
        map.set(code.toString(16).padStart(4, '0'), targets[code - parseInt(start!, 16)] ?? '');
    }
    maps.set(name!, map);
  }
  return maps;
}

/**
 * The text shown on the pages, a line per text run: the standard fonts' WinAnsi strings, and the
 * embedded fonts' glyph codes through their ToUnicode maps.
 */
export function pdfText(pdf: Buffer): string {
  const all = streams(pdf);
  const maps = toUnicodeMaps(pdf, all);
  const lines: string[] = [];
  for (const s of all) {
    if (/\/Subtype \/Image/.test(s.dict)) continue;
    const content = decoded(s).toString('latin1');
    let font: Map<string, string> | undefined;
    for (const [, name, array] of content.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ/g)) {
      if (name) {
        font = maps.get(name);
        continue;
      }
      lines.push(
        [...array!.matchAll(/<([0-9a-f]*)>/gi)]
          .map(([, hex]) =>
            font
              ? (hex!.match(/.{4}/g) ?? [])
                  .map((code) => font!.get(code.toLowerCase()) ?? '')
                  .join('')
              : winAnsi.decode(Buffer.from(hex!, 'hex')),
          )
          .join(''),
      );
    }
  }
  return lines.join('\n');
}

export type PdfImage = { width: number; height: number; gray: Uint8ClampedArray };

/**
 * The images embedded in the PDF, as gray levels: raw RGB or gray samples (pdfkit's form for PNGs
 * with an alpha channel, their alpha in a separate /SMask), or PNG-predicted data (its form for
 * PNGs without one), which is rebuilt into a PNG file and read with pngjs.
 */
export function pdfImages(pdf: Buffer): PdfImage[] {
  const all = streams(pdf);
  const masks = new Set(
    all.flatMap((s) => [...s.dict.matchAll(/\/SMask (\d+) 0 R/g)].map((m) => Number(m[1]))),
  );
  return all
    .filter((s) => /\/Subtype \/Image/.test(s.dict) && !masks.has(s.id))
    .map((s) => {
      const width = dictNumber(s.dict, 'Width');
      const height = dictNumber(s.dict, 'Height');
      const channels = /\/DeviceRGB/.test(s.dict) ? 3 : 1;
      const gray = new Uint8ClampedArray(width * height);
      if (/\/Predictor 1[0-5]/.test(s.dict)) {
        const header = Buffer.alloc(13);
        header.writeUInt32BE(width, 0);
        header.writeUInt32BE(height, 4);
        header[8] = dictNumber(s.dict, 'BitsPerComponent');
        header[9] = channels === 3 ? 2 : 0;
        const png = PNG.sync.read(
          Buffer.concat([
            Buffer.from('89504e470d0a1a0a', 'hex'),
            chunk('IHDR', header),
            chunk('IDAT', s.data),
            chunk('IEND', Buffer.alloc(0)),
          ]),
        );
        for (let i = 0; i < gray.length; i++)
          gray[i] = (png.data[i * 4]! + png.data[i * 4 + 1]! + png.data[i * 4 + 2]!) / 3;
      } else {
        const raw = decoded(s);
        for (let i = 0; i < gray.length; i++) {
          let sum = 0;
          for (let c = 0; c < channels; c++) sum += raw[i * channels + c]!;
          gray[i] = sum / channels;
        }
      }
      return { width, height, gray };
    });
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** What ZXing reads in the image as a barcode of that format, or null. */
export function decodeImage(image: PdfImage, format: 'code128' | 'qr'): string | null {
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [
      DecodeHintType.POSSIBLE_FORMATS,
      [format === 'qr' ? BarcodeFormat.QR_CODE : BarcodeFormat.CODE_128],
    ],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  // The image is the QR code alone, as drawn (no angle, no perspective): ZXing's pure-barcode
  // mode reads it from its quiet zone. Its finder-pattern search, made for photos, missed 5 of
  // 300 such images (tracking numbers drawn at random); the pure mode read all of them.
  if (format === 'qr') hints.set(DecodeHintType.PURE_BARCODE, true);
  try {
    const source = new RGBLuminanceSource(image.gray, image.width, image.height);
    return reader.decode(new BinaryBitmap(new HybridBinarizer(source)), hints).getText();
  } catch {
    return null;
  }
}

/** Every barcode of that format found in the PDF's images. */
export function pdfBarcodes(pdf: Buffer, format: 'code128' | 'qr'): string[] {
  return pdfImages(pdf)
    .map((image) => decodeImage(image, format))
    .filter((text): text is string => text !== null);
}
