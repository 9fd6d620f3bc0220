import { publicCompanyInfo } from '~/lib/env.server';
import type { SerializedRun } from '~/models/run.server';
import { pickupSummary } from '~/utils/pickup-summary';
import { describeDeliveryPreferences } from '~/utils/delivery-preferences-text';
import { addressLines, stopAddress } from './address-format.server';
import { fitText, labelImages, pdfDocument } from './label-render.server';
import { PDF_FONT, PDF_FONT_BOLD } from './pdf-fonts.server';
import type { StopWithRecord } from './runs.server';

/**
 * A run's sheet for the courier's clipboard: A4, its stops in order, each with the address, the
 * recipient's preferences and the parcel's Code 128 barcode (a pickup: its account, window,
 * parcel count and notes, and nothing to scan), drawn with the label's own pieces
 * (the barcode image, the fitted text, the document).
 */
const A4: [number, number] = [595.28, 841.89];
const MARGIN = 36;
const ROW = 92;
const BARCODE_WIDTH = 170;

export async function renderRunSheetPdf(
  run: SerializedRun,
  stops: StopWithRecord[],
  names: { depot: string; courier: string },
): Promise<Buffer> {
  const company = publicCompanyInfo();
  const images = await Promise.all(
    stops.map((s) => (s.kind === 'delivery' ? labelImages(s.parcel.trackingNumber) : null)),
  );
  const { doc, done } = pdfDocument(
    A4,
    {
      Title: `Run sheet ${run.date} ${names.courier}`,
      Author: company.name,
      Subject: `${stops.length} stops from ${names.depot} on ${run.date}`,
    },
    true,
  );
  const width = A4[0] - 2 * MARGIN;
  const textWidth = width - BARCODE_WIDTH - 12;
  let y = A4[1];
  const header = () => {
    doc.addPage({ size: A4, margin: 0 });
    fitText(
      doc,
      `Run sheet · ${run.date} · ${names.depot} · ${names.courier} · ${stops.length} stops`,
      { x: MARGIN, y: MARGIN, width, height: 20 },
      PDF_FONT_BOLD,
      13,
      9,
      { lineBreak: false },
    );
    y = MARGIN + 28;
  };
  stops.forEach((stop, i) => {
    if (y + ROW > A4[1] - MARGIN) header();
    const row =
      stop.kind === 'delivery'
        ? {
            title: `${stop.parcel.trackingNumber} · ${stop.parcel.recipient.name}`,
            address: stopAddress(stop.parcel, 0),
            details: describeDeliveryPreferences(stop.parcel.deliveryPreferences).join(' · '),
          }
        : {
            title: `Pickup · ${stop.pickup.accountName}`,
            address: addressLines(stop.pickup.address).join(', '),
            details: [pickupSummary(stop.pickup), stop.pickup.notes].filter(Boolean).join(' · '),
          };
    fitText(
      doc,
      `${i + 1}. ${row.title}`,
      { x: MARGIN, y, width: textWidth, height: 16 },
      PDF_FONT_BOLD,
      11,
      8,
      { lineBreak: false },
    );
    fitText(
      doc,
      row.address,
      { x: MARGIN, y: y + 18, width: textWidth, height: 26 },
      PDF_FONT,
      9.5,
      7,
    );
    if (row.details)
      fitText(
        doc,
        row.details,
        { x: MARGIN, y: y + 46, width: textWidth, height: 34 },
        PDF_FONT,
        8.5,
        6.5,
      );
    const barcode = images[i]?.barcode;
    if (barcode)
      doc.image(barcode, MARGIN + textWidth + 12, y + 4, { width: BARCODE_WIDTH, height: 48 });
    doc
      .moveTo(MARGIN, y + ROW - 6)
      .lineTo(MARGIN + width, y + ROW - 6)
      .lineWidth(0.5)
      .strokeColor('#9ca3af')
      .stroke();
    y += ROW;
  });
  if (!stops.length) header();
  doc.end();
  return done;
}
