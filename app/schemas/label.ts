/** The most labels one sheet request prints: a full table page (100 rows), 2 labels a page. */
export const MAX_LABELS_PER_SHEET = 100;

/** The sheet's paper: A4 unless Letter is asked for. */
export const LABEL_PAPERS = ['a4', 'letter'] as const;
export type LabelPaper = (typeof LABEL_PAPERS)[number];

export const LABEL_PAPER_NAMES: Record<LabelPaper, string> = { a4: 'A4', letter: 'Letter' };

/** The file name of a parcel's label, with its tracking number. */
export function labelFilename(trackingNumber: string): string {
  return `label-${trackingNumber.replace(/[^A-Za-z0-9-]/g, '')}.pdf`;
}

/** Where a parcel's label is: the API route, open to every role, cookie or token. */
export function labelHref(parcelId: string): string {
  return `/api/parcels/${parcelId}/label.pdf`;
}
