import { z } from './zod';
import { textField } from './text';
import { MAX_PROOF_PHOTOS } from './constants';

export { MAX_PROOF_PHOTOS };
/** How large each photo of a proof of delivery may be as uploaded. */
export const PROOF_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PROOF_SIGNATURE_MAX_BYTES = 2 * 1024 * 1024;
/** The longest side of a stored photo or signature, in pixels. */
export const PROOF_IMAGE_MAX_PX = 2048;
/** The most a proof-of-delivery request body may carry: every file at its limit, and the fields. */
export const PROOF_UPLOAD_MAX_BYTES =
  MAX_PROOF_PHOTOS * PROOF_PHOTO_MAX_BYTES + PROOF_SIGNATURE_MAX_BYTES + 256 * 1024;
export const PROOF_RECEIVED_BY_MAX = 200;
export const PROOF_NOTE_MAX = 1000;

/** An uploaded file as FormData holds it (the browser's File, or the server's multipart part). */
export type UploadedFile = {
  name: string;
  size: number;
  type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
};
const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as UploadedFile).size === 'number' &&
  typeof (value as UploadedFile).arrayBuffer === 'function';

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

const file = (label: string, max: number) =>
  z
    .custom<UploadedFile>(isUploadedFile, { error: `${label} must be a file` })
    .refine((f) => f.size <= max, `${label} must be at most ${megabytes(max)}`);

const RECEIVED_BY_MESSAGE = 'Enter the name of the person who received the parcel';

/**
 * A proof of delivery for one stop, as the dashboard's form and
 * `POST /api/parcels/:id/proof-of-delivery` (multipart/form-data) send it. `destination` is the
 * stop's index from 0 (default 0: the recipient, or the single destination). Photos are JPEG, PNG
 * or WebP, the signature a PNG; what they really are is decided by decoding them on the server.
 * `signatureName` is a typed name standing for a signature, for a form without the signature pad.
 */
export const ProofOfDeliverySchema = z.object({
  receivedBy: z
    .string({
      error: (issue) =>
        issue.input === undefined ? RECEIVED_BY_MESSAGE : 'Received by must be text',
    })
    .trim()
    .min(1, RECEIVED_BY_MESSAGE)
    .max(PROOF_RECEIVED_BY_MAX, `Received by must be at most ${PROOF_RECEIVED_BY_MAX} characters`),
  destination: z
    .string({ error: 'Destination must be the number of a stop, from 0' })
    .trim()
    .regex(/^\d{1,3}$/, 'Destination must be the number of a stop, from 0')
    .transform(Number)
    .default(0),
  note: textField('Note', PROOF_NOTE_MAX).default(''),
  signatureName: textField('Typed signature', PROOF_RECEIVED_BY_MAX).default(''),
  photo: z
    .array(file('Each photo', PROOF_PHOTO_MAX_BYTES), { error: 'Photos must be files' })
    .max(MAX_PROOF_PHOTOS, `At most ${MAX_PROOF_PHOTOS} photos`)
    .default([]),
  signature: file('The signature', PROOF_SIGNATURE_MAX_BYTES).optional(),
});
export type ProofOfDeliveryInput = z.output<typeof ProofOfDeliverySchema>;

/** The fields of ProofOfDeliverySchema; any other field of an API request is refused. */
export const PROOF_OF_DELIVERY_FIELDS = Object.keys(ProofOfDeliverySchema.shape);
/** The fields that carry files. */
export const PROOF_FILE_FIELDS = ['photo', 'signature'] as const;

/**
 * The body as FormData holds it, read into the schema's input: `photo` repeated, the rest once.
 * Empty file inputs (a form sent without choosing a file) count as not given.
 */
export function proofFormValues(form: FormData): Record<string, unknown> {
  const given = (value: FormDataEntryValue) => typeof value === 'string' || value.size > 0;
  const values: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key).filter(given);
    if (key === 'photo') values.photo = all;
    else if (all.length) values[key] = all.length === 1 ? all[0] : all;
  }
  return values;
}

/** Where a proof's photo or signature is served: to signed-in staff and API credentials only. */
export function proofFileHref(fileId: string): string {
  return `/api/proof-of-delivery/files/${fileId}`;
}

/** A proof of delivery as a one-page PDF. */
export function proofPdfHref(parcelId: string, proofId: string): string {
  return `/api/parcels/${parcelId}/proof-of-delivery/${proofId}.pdf`;
}

/** The dashboard's form recording the proof of one stop. */
export function proofFormHref(parcelId: string, destination: number, search = ''): string {
  const params = new URLSearchParams(search);
  params.set('destination', String(destination));
  return `/dashboard/parcels/${parcelId}/proof-of-delivery?${params}`;
}
