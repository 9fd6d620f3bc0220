import PDFDocument from 'pdfkit';
import type { SerializedProof } from '~/models/proof-of-delivery.server';
import { readFile } from '~/models/stored-file.server';
import { env, publicCompanyInfo, type CompanyInfo } from '~/lib/env.server';
import { formatEventTime } from '~/utils/format';
import { PDF_FONT, PDF_FONT_BOLD, printable, registerPdfFonts } from './pdf-fonts.server';
import { pdfImage } from './proof-images.server';

/** A4 portrait, in PDF points. */
const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const WIDTH = PAGE[0] - 2 * MARGIN;

/** The file name of a proof's PDF, with the tracking number and the stop. */
export function proofFilename(proof: Pick<SerializedProof, 'trackingNumber' | 'destination'>) {
  return `proof-of-delivery-${proof.trackingNumber.replace(/[^A-Za-z0-9-]/g, '')}-stop-${proof.destination + 1}.pdf`;
}

/**
 * A proof of delivery as a one-page A4 PDF, as labels and receipts are made (pdfkit, the bundled
 * fonts): the parcel and stop, who received it and when (in the company's zone), the note, the
 * signature (the drawn one, or the typed name) and the photos side by side.
 */
export async function renderProofPdf(
  proof: SerializedProof,
  company: CompanyInfo = publicCompanyInfo(),
): Promise<Buffer> {
  const photos = await Promise.all(
    proof.photos.map(async (p) => {
      const file = await readFile(p.id);
      return file ? pdfImage(file.data, 900) : null;
    }),
  );
  const signatureFile = proof.signature ? await readFile(proof.signature.id) : null;
  const signature = signatureFile ? await pdfImage(signatureFile.data, 900) : null;

  const doc = registerPdfFonts(
    new PDFDocument({
      size: PAGE,
      margin: 0,
      info: {
        Title: `Proof of delivery ${proof.trackingNumber}`,
        Author: company.name,
        Subject: `Proof of delivery for parcel ${proof.trackingNumber}, stop ${proof.destination + 1}`,
      },
    }),
  );
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const line = (label: string, value: string) => {
    doc.font(PDF_FONT_BOLD).fontSize(9).fillColor('#4b5563').text(label.toUpperCase(), MARGIN, y, {
      width: 130,
      characterSpacing: 0.5,
    });
    doc
      .font(PDF_FONT)
      .fontSize(11)
      .fillColor('#000000')
      .text(printable(value) || '—', MARGIN + 140, y, {
        width: WIDTH - 140,
        height: 42,
        ellipsis: true,
      });
    y = Math.max(doc.y, y + 14) + 6;
  };

  let y = MARGIN;
  doc.font(PDF_FONT_BOLD).fontSize(11).text(printable(company.name), MARGIN, y, { width: WIDTH });
  y += 24;
  doc.font(PDF_FONT_BOLD).fontSize(20).text('Proof of delivery', MARGIN, y, { width: WIDTH });
  y += 36;
  const stopAddress = [
    proof.stop.address,
    [proof.stop.postalCode, proof.stop.city].filter(Boolean).join(' '),
    proof.stop.country,
  ]
    .filter((part) => part.trim())
    .join(', ');
  line('Tracking number', proof.trackingNumber);
  line(
    'Stop',
    `${proof.destination + 1} of ${proof.stops}${proof.stop.name ? `: ${proof.stop.name}` : ''}`,
  );
  line('Address', stopAddress);
  line('Received by', proof.receivedBy);
  line('Delivered', formatEventTime(proof.deliveredAt, env.COMPANY_TIMEZONE));
  line('Recorded by', proof.recordedBy ?? '—');
  if (proof.note) line('Note', proof.note);

  y += 8;
  doc.font(PDF_FONT_BOLD).fontSize(9).fillColor('#4b5563').text('SIGNATURE', MARGIN, y);
  y += 14;
  doc.rect(MARGIN, y, 260, 100).lineWidth(0.5).strokeColor('#9ca3af').stroke();
  if (signature) {
    doc.image(signature, MARGIN + 4, y + 4, { fit: [252, 92], align: 'center', valign: 'center' });
  } else if (proof.signatureName) {
    doc
      .font(PDF_FONT)
      .fontSize(16)
      .fillColor('#000000')
      .text(printable(proof.signatureName), MARGIN + 10, y + 40, {
        width: 240,
        lineBreak: false,
        ellipsis: true,
      });
    doc
      .font(PDF_FONT)
      .fontSize(8)
      .fillColor('#4b5563')
      .text('Typed name', MARGIN + 10, y + 84);
  } else {
    doc
      .font(PDF_FONT)
      .fontSize(9)
      .fillColor('#4b5563')
      .text('No signature', MARGIN + 10, y + 44);
  }
  y += 116;

  const shown = photos.filter((p): p is Buffer => !!p);
  if (shown.length) {
    doc.font(PDF_FONT_BOLD).fontSize(9).fillColor('#4b5563').text('PHOTOS', MARGIN, y);
    y += 14;
    const gap = 10;
    const size = (WIDTH - gap * 2) / 3;
    const height = Math.min(size * 1.4, PAGE[1] - MARGIN - y);
    shown.forEach((photo, i) => {
      doc.image(photo, MARGIN + i * (size + gap), y, {
        fit: [size, height],
        align: 'center',
        valign: 'center',
      });
    });
  }
  doc.end();
  return done;
}
