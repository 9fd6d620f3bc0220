import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/*
 * The fonts of every PDF the app writes (receipts and labels): DejaVu Sans, regular and bold,
 * embedded as subsets (only the glyphs a document uses). PDF's standard Helvetica prints only
 * Windows-1252, so a name like "Łódź", "Αθήνα" or "Москва" came out as '?' or as broken
 * glyphs. DejaVu Sans covers the Latin, Greek and Cyrillic scripts and many more; a character it
 * has no glyph for is reduced to its base letter, else printed as '?' (see printable), never as
 * an empty box.
 */

export const PDF_FONT = 'Sans';
export const PDF_FONT_BOLD = 'Sans-Bold';

const require = createRequire(import.meta.url);

type LoadedFont = { data: Buffer; face: fontkit.Font };

function load(file: string): LoadedFont {
  const data = fs.readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
  const face = fontkit.create(data);
  if (!('hasGlyphForCodePoint' in face)) throw new Error(`${file} is a font collection`);
  return { data, face };
}

let fonts: { regular: LoadedFont; bold: LoadedFont } | undefined;

function loaded() {
  fonts ??= { regular: load('DejaVuSans.ttf'), bold: load('DejaVuSans-Bold.ttf') };
  return fonts;
}

/** Registers the two fonts on a new document under PDF_FONT and PDF_FONT_BOLD. */
export function registerPdfFonts(doc: PDFKit.PDFDocument): PDFKit.PDFDocument {
  const { regular, bold } = loaded();
  doc.registerFont(PDF_FONT, regular.data);
  doc.registerFont(PDF_FONT_BOLD, bold.data);
  return doc;
}

function printableChar(ch: string): boolean {
  const { regular, bold } = loaded();
  const code = ch.codePointAt(0)!;
  return regular.face.hasGlyphForCodePoint(code) && bold.face.hasGlyphForCodePoint(code);
}

/**
 * Text both fonts can print. Line breaks stay; other control and format characters become
 * spaces; a character without a glyph is reduced to its base letters (NFKD without the marks),
 * or else becomes '?'.
 */
export function printable(text: string): string {
  let out = '';
  for (const ch of text.replace(/\r\n?/g, '\n').normalize('NFC')) {
    if (ch === '\n') out += '\n';
    else if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(ch)) out += ' ';
    else if (printableChar(ch)) out += ch;
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base && [...base].every(printableChar) ? base : '?';
    }
  }
  return out;
}
