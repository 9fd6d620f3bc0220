import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { SerializedParcel } from '~/models/parcel.server';
import type { LabelPaper } from '~/schemas/label';
import { publicCompanyInfo, type CompanyInfo } from '~/lib/env.server';
import { trackingUrl } from '~/lib/urls.server';
import { addressLines } from './address-format.server';
import { PDF_FONT, PDF_FONT_BOLD, printable, registerPdfFonts } from './pdf-fonts.server';

/** What a label needs of a parcel; the serialized parcel fits. */
export type LabelParcel = Pick<
  SerializedParcel,
  | 'trackingNumber'
  | 'sender'
  | 'recipient'
  | 'destinations'
  | 'serviceType'
  | 'priority'
  | 'weight'
  | 'dimensions'
>;

/** A 4×6 in label, in PDF points (72 a inch). */
export const LABEL_WIDTH = 4 * 72;
export const LABEL_HEIGHT = 6 * 72;
const MARGIN = 12;
const INNER = LABEL_WIDTH - 2 * MARGIN;

/**
 * The bulk sheet's pages, landscape: two labels side by side at their true 4×6 in size (576 × 432
 * pt) fit both A4 (842 × 595) and Letter (792 × 612) with at least 1 in of margin around them, more
 * than any office printer needs, so printed at "actual size" each label cuts out at exactly 4×6 in
 * for a standard label pouch, with its barcode at the module width it was drawn for.
 */
const SHEET_SIZES: Record<LabelPaper, [number, number]> = {
  a4: [841.89, 595.28],
  letter: [792, 612],
};
const LABELS_PER_PAGE = 2;

/** Code 128 module (narrowest bar) width: 20 mil, which any handheld or fixed scanner reads. */
const BARCODE_MODULE = 1.44;
/** Pixels a module in the barcode and QR images: ≥ 300 dpi at the sizes they are drawn. */
const BARCODE_PX_PER_MODULE = 6;
const QR_PX_PER_MODULE = 8;
/** The quiet zone Code 128 needs on each side, in modules; QR's is 4 modules. */
const BARCODE_QUIET_MODULES = 10;
const QR_QUIET_MODULES = 4;

type Box = { x: number; y: number; width: number; height: number };

/**
 * Writes `text` inside `box`: at `max` points, shrinking by half a point down to `min` until it
 * fits, and cut with an ellipsis if it still does not. Returns the height used. Nothing is ever
 * drawn outside the box, however long the name or address.
 */
export function fitText(
  doc: PDFKit.PDFDocument,
  text: string,
  box: Box,
  font: string,
  max: number,
  min: number,
  options: PDFKit.Mixins.TextOptions = {},
): number {
  const value = printable(text).trim();
  if (!value) return 0;
  const layout = { width: box.width, lineGap: 0, ...options };
  doc.font(font);
  const measure = (size: number) => doc.fontSize(size).heightOfString(value, layout);
  let size = max;
  while (size > min && measure(size) > box.height) size -= 0.5;
  const used = Math.min(measure(size), box.height);
  doc.fontSize(size).text(value, box.x, box.y, { ...layout, height: box.height, ellipsis: true });
  return used;
}

function caption(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width = INNER) {
  doc
    .font(PDF_FONT_BOLD)
    .fontSize(6.5)
    .fillColor('#000000')
    .text(text, x, y, { width, height: 8, lineBreak: false, characterSpacing: 0.5 });
}

function rule(doc: PDFKit.PDFDocument, x: number, y: number, weight = 1) {
  doc
    .moveTo(x, y)
    .lineTo(x + LABEL_WIDTH, y)
    .lineWidth(weight)
    .strokeColor('#000000')
    .stroke();
}

/** The images of a label: its Code 128 barcode and the QR code of its tracking page. */
type LabelImages = {
  barcode: Buffer;
  barcodeModules: number;
  qr: Buffer;
  qrModules: number;
  url: string;
};

const pngWidth = (png: Buffer) => png.readUInt32BE(16);

export async function labelImages(trackingNumber: string): Promise<LabelImages> {
  const url = trackingUrl(trackingNumber);
  const [barcode, qr] = await Promise.all([
    bwipjs.toBuffer({
      bcid: 'code128',
      text: trackingNumber,
      scaleX: BARCODE_PX_PER_MODULE,
      scaleY: 1,
      height: 10,
      includetext: false,
      paddingwidth: BARCODE_QUIET_MODULES,
      backgroundcolor: 'FFFFFF',
    }),
    QRCode.toBuffer(url, {
      type: 'png',
      errorCorrectionLevel: 'M',
      margin: QR_QUIET_MODULES,
      scale: QR_PX_PER_MODULE,
      color: { dark: '#000000ff', light: '#ffffffff' },
    }),
  ]);
  return {
    barcode,
    barcodeModules: pngWidth(barcode) / BARCODE_PX_PER_MODULE,
    qr,
    qrModules: pngWidth(qr) / QR_PX_PER_MODULE,
    url,
  };
}

/**
 * Where the label sends the parcel: its first stop, under the stop's own name (never the
 * recipient's over another address), or the recipient when it has no stop. Printed in the
 * country's order; a stop at the recipient's address takes the recipient's structured parts it
 * lacks (the region, say).
 */
function toAddress(parcel: LabelParcel) {
  const stop = parcel.destinations[0];
  const recipient = parcel.recipient;
  if (!stop) return { name: recipient.name, lines: addressLines(recipient) };
  const same = stop.address === recipient.address;
  return {
    name: stop.name,
    lines: addressLines({
      address: stop.address,
      city: stop.city || (same ? recipient.city : ''),
      region: same ? recipient.region : '',
      postalCode: stop.postalCode || (same ? recipient.postalCode : ''),
      country: (same && recipient.country) || stop.country,
    }),
  };
}

function formatNumber(value: number) {
  return String(Math.round(value * 100) / 100);
}

/** One 4×6 in label with its top left corner at (ox, oy). */
function drawLabel(
  doc: PDFKit.PDFDocument,
  parcel: LabelParcel,
  images: LabelImages,
  company: CompanyInfo,
  ox: number,
  oy: number,
) {
  const x = ox + MARGIN;
  doc.fillColor('#000000');

  // The company, and the service in a black box that the sorting staff see from afar.
  fitText(doc, company.name, { x, y: oy + 12, width: 160, height: 15 }, PDF_FONT_BOLD, 12, 7);
  fitText(doc, company.phone, { x, y: oy + 29, width: 160, height: 10 }, PDF_FONT, 7, 5);
  const badge = { x: ox + LABEL_WIDTH - MARGIN - 100, y: oy + 10, width: 100, height: 30 };
  doc.rect(badge.x, badge.y, badge.width, badge.height).fill('#000000');
  doc.fillColor('#ffffff');
  fitText(
    doc,
    parcel.serviceType.toUpperCase(),
    { x: badge.x + 4, y: badge.y + 8, width: badge.width - 8, height: 16 },
    PDF_FONT_BOLD,
    15,
    8,
    { align: 'center', lineBreak: false },
  );
  doc.fillColor('#000000');
  rule(doc, ox, oy + 46, 1.5);

  // From.
  caption(doc, 'FROM', x, oy + 51);
  const fromName = parcel.sender.name || company.name;
  let used = fitText(
    doc,
    fromName,
    { x, y: oy + 60, width: INNER, height: 11 },
    PDF_FONT_BOLD,
    9,
    6,
    { lineBreak: false },
  );
  const fromLines = [...addressLines(parcel.sender), parcel.sender.phone].filter((l) => l.trim());
  fitText(
    doc,
    fromLines.join('\n'),
    { x, y: oy + 60 + used + 1, width: INNER, height: 104 - (60 + used + 1) },
    PDF_FONT,
    8,
    5,
  );
  rule(doc, ox, oy + 108);

  // To: the first stop (the recipient's address when it has none), big enough to sort by.
  caption(doc, 'TO', x, oy + 113);
  if (parcel.destinations.length > 1)
    doc
      .font(PDF_FONT)
      .fontSize(6.5)
      .text(`Stop 1 of ${parcel.destinations.length}`, x, oy + 113, {
        width: INNER,
        align: 'right',
        lineBreak: false,
      });
  const to = toAddress(parcel);
  used = to.name
    ? fitText(doc, to.name, { x, y: oy + 123, width: INNER, height: 36 }, PDF_FONT_BOLD, 15, 9)
    : 0;
  const toLines = [...to.lines, parcel.recipient.phone ? `Tel. ${parcel.recipient.phone}` : ''];
  const toTop = oy + 123 + used + 2;
  fitText(
    doc,
    toLines.filter(Boolean).join('\n'),
    { x, y: toTop, width: INNER, height: oy + 222 - toTop },
    PDF_FONT,
    12,
    6,
  );
  rule(doc, ox, oy + 226, 2);

  // Service, weight, size and priority in four columns.
  const { length, width, height } = parcel.dimensions;
  const details: Array<[string, string]> = [
    ['SERVICE', parcel.serviceType],
    ['WEIGHT', `${formatNumber(parcel.weight)} kg`],
    ['SIZE (CM)', `${formatNumber(length)}×${formatNumber(width)}×${formatNumber(height)}`],
    ['PRIORITY', parcel.priority],
  ];
  const column = INNER / details.length;
  details.forEach(([label, value], i) => {
    caption(doc, label, x + i * column, oy + 231, column - 4);
    fitText(
      doc,
      value,
      { x: x + i * column, y: oy + 241, width: column - 4, height: 13 },
      PDF_FONT_BOLD,
      10,
      6,
      { lineBreak: false },
    );
  });
  rule(doc, ox, oy + 258);

  // The barcode at its module width (narrower only if a long number would not fit), bars 0.8 in.
  const module = Math.min(BARCODE_MODULE, (LABEL_WIDTH - 8) / images.barcodeModules);
  const barcodeWidth = images.barcodeModules * module;
  doc.image(images.barcode, ox + (LABEL_WIDTH - barcodeWidth) / 2, oy + 265, {
    width: barcodeWidth,
    height: 58,
  });
  fitText(
    doc,
    parcel.trackingNumber,
    { x, y: oy + 327, width: INNER, height: 20 },
    PDF_FONT_BOLD,
    17,
    9,
    { align: 'center', characterSpacing: 2, lineBreak: false },
  );
  rule(doc, ox, oy + 352);

  // The QR code of the public tracking page (its quiet zone included in the image).
  const qrSize = 74;
  doc.image(images.qr, ox + MARGIN - 6, oy + 355, { width: qrSize, height: qrSize });
  const textX = ox + MARGIN - 6 + qrSize + 4;
  const textWidth = ox + LABEL_WIDTH - MARGIN - textX;
  caption(doc, 'TRACK THIS PARCEL', textX, oy + 366, textWidth);
  fitText(doc, images.url, { x: textX, y: oy + 376, width: textWidth, height: 28 }, PDF_FONT, 8, 5);
  fitText(
    doc,
    `${company.phone}  ·  ${company.email}`,
    { x: textX, y: oy + 406, width: textWidth, height: 10 },
    PDF_FONT,
    7,
    5,
    { lineBreak: false },
  );
}

export function pdfDocument(
  size: [number, number],
  info: PDFKit.DocumentInfo,
  compress: boolean,
): { doc: PDFKit.PDFDocument; done: Promise<Buffer> } {
  const doc = registerPdfFonts(
    new PDFDocument({ size, margin: 0, compress, info, autoFirstPage: false }),
  );
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

/** A parcel's 4×6 in shipping label as a one-page PDF. */
export function renderLabelPdf(
  parcel: LabelParcel,
  company: CompanyInfo = publicCompanyInfo(),
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  return renderLabelsPdf([parcel], company, options);
}

/** Parcels' 4×6 in shipping labels, one a page, in one PDF (a label printer's roll). */
export async function renderLabelsPdf(
  parcels: LabelParcel[],
  company: CompanyInfo = publicCompanyInfo(),
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const images = await Promise.all(parcels.map((p) => labelImages(p.trackingNumber)));
  const one = parcels.length === 1 ? parcels[0]!.trackingNumber : null;
  const { doc, done } = pdfDocument(
    [LABEL_WIDTH, LABEL_HEIGHT],
    one
      ? {
          Title: `Shipping label ${one}`,
          Author: company.name,
          Subject: `Shipping label for parcel ${one}`,
        }
      : {
          Title: `Shipping labels (${parcels.length})`,
          Author: company.name,
          Subject: `Shipping labels for ${parcels.length} parcels`,
        },
    options.compress ?? true,
  );
  parcels.forEach((parcel, i) => {
    doc.addPage({ size: [LABEL_WIDTH, LABEL_HEIGHT], margin: 0 });
    drawLabel(doc, parcel, images[i]!, company, 0, 0);
  });
  doc.end();
  return done;
}

/**
 * Labels for printing on office paper: A4 or Letter, landscape, two true-size labels a page with
 * dashed cut lines around them (see SHEET_SIZES).
 */
export async function renderLabelSheetPdf(
  parcels: LabelParcel[],
  paper: LabelPaper = 'a4',
  company: CompanyInfo = publicCompanyInfo(),
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const size = SHEET_SIZES[paper];
  const [pageWidth, pageHeight] = size;
  const images = await Promise.all(parcels.map((p) => labelImages(p.trackingNumber)));
  const { doc, done } = pdfDocument(
    size,
    {
      Title: `Shipping labels (${parcels.length})`,
      Author: company.name,
      Subject: `Shipping labels for ${parcels.length} parcel${parcels.length === 1 ? '' : 's'}`,
    },
    options.compress ?? true,
  );
  const gap = 24;
  const left = (pageWidth - LABELS_PER_PAGE * LABEL_WIDTH - (LABELS_PER_PAGE - 1) * gap) / 2;
  const top = (pageHeight - LABEL_HEIGHT) / 2;
  parcels.forEach((parcel, i) => {
    const slot = i % LABELS_PER_PAGE;
    if (slot === 0) doc.addPage({ size, margin: 0 });
    const ox = left + slot * (LABEL_WIDTH + gap);
    doc
      .rect(ox, top, LABEL_WIDTH, LABEL_HEIGHT)
      .lineWidth(0.5)
      .dash(4, { space: 3 })
      .strokeColor('#9ca3af')
      .stroke()
      .undash();
    drawLabel(doc, parcel, images[i]!, company, ox, top);
  });
  doc.end();
  return done;
}
