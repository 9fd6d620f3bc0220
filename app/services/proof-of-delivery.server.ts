import { ConflictError, NotFoundError, ValidationError } from '~/lib/errors.server';
import { stopTimeZone } from '~/lib/address-time-zone.server';
import { getParcel, getParcelStatus } from '~/models/parcel-reads.server';
import {
  hasProof,
  insertProof,
  proofIds,
  removeProof,
  setProofEvent,
  type SerializedProof,
} from '~/models/proof-of-delivery.server';
import { deleteFiles, saveFile } from '~/models/stored-file.server';
import type { ProofOfDeliveryInput, UploadedFile } from '~/schemas/proof-of-delivery';
import { auditRecord, type Actor } from './audit.server';
import { checkImage, decodeImage, type CheckedImage, type CleanImage } from './proof-images.server';
import { addEvent } from './tracking-events.server';
import { emitWebhookEvent } from './webhooks.server';

/**
 * Recording a proof of delivery for one stop of a parcel: the photos and signature decoded and
 * re-encoded (proof-images.server.ts), stored, the proof written, and the stop's Delivered event
 * added through addEvent, so the status, e-mails, webhooks and audit follow as for any event. The
 * parcel becomes Delivered with its last stop (statusFromEvents). When it does, `parcel.delivered`
 * carries the ids of every stop's proof. Nothing is stored when any file is refused, and what was
 * stored is removed again when a later step fails. The dashboard's form and the API call this.
 */

export const PROOF_EXISTS = 'This stop already has a proof of delivery';

/** Every file's header is checked before any is decoded: one refused file costs no decoding. */
async function decodeAll(input: ProofOfDeliveryInput) {
  const read = async (file: UploadedFile) => Buffer.from(await file.arrayBuffer());
  const checkedPhotos: CheckedImage[] = [];
  for (const [i, photo] of input.photo.entries()) {
    checkedPhotos.push(
      await checkImage(await read(photo), {
        field: input.photo.length > 1 ? `photo.${i}` : 'photo',
        label: input.photo.length > 1 ? `Photo ${i + 1}` : 'The photo',
        accept: ['jpeg', 'png', 'webp'],
      }),
    );
  }
  const checkedSignature = input.signature
    ? await checkImage(await read(input.signature), {
        field: 'signature',
        label: 'The signature',
        accept: ['png'],
      })
    : null;
  const photos: CleanImage[] = [];
  for (const photo of checkedPhotos) photos.push(await decodeImage(photo));
  const signature = checkedSignature ? await decodeImage(checkedSignature) : null;
  return { photos, signature };
}

export async function recordProofOfDelivery(
  parcelId: string,
  input: ProofOfDeliveryInput,
  actor?: Actor,
): Promise<{ proof: SerializedProof; parcelStatus: string }> {
  const parcel = await getParcel(parcelId);
  if (!parcel) throw new NotFoundError('Parcel not found');
  const stops = Math.max(parcel.destinations.length, 1);
  const index = input.destination;
  if (index >= stops) {
    const message =
      stops === 1
        ? 'This parcel has one stop: leave the destination out or send 0'
        : `This parcel has ${stops} stops: choose 0 to ${stops - 1}`;
    throw new ValidationError({ destination: [message] });
  }
  if (await hasProof(parcel.id, index))
    throw new ConflictError(PROOF_EXISTS, { code: 'proof_of_delivery_exists' });

  const { photos, signature } = await decodeAll(input);

  const destination = parcel.destinations[index];
  const stop = destination
    ? {
        name: destination.name,
        address: destination.address,
        city: destination.city,
        postalCode: destination.postalCode,
        country: destination.country,
      }
    : { name: parcel.recipient.name, address: parcel.recipient.address };
  const fileIds: string[] = [];
  const store = async (image: CleanImage, kind: string) => {
    const id = await saveFile(image.data, {
      filename: `${parcel.trackingNumber}-${index + 1}-${kind}.${image.format === 'jpeg' ? 'jpg' : image.format}`,
      contentType: image.contentType,
      metadata: { parcelId: parcel.id },
    });
    fileIds.push(id);
    return {
      fileId: id,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      size: image.data.length,
    };
  };

  let proof: SerializedProof | null = null;
  try {
    const storedPhotos = [];
    for (const [i, photo] of photos.entries())
      storedPhotos.push(await store(photo, `photo${i + 1}`));
    const storedSignature = signature ? await store(signature, 'signature') : null;
    const deliveredAt = new Date();
    proof = await insertProof({
      parcelId: parcel.id,
      trackingNumber: parcel.trackingNumber,
      destination: index,
      stops,
      stop,
      receivedBy: input.receivedBy,
      signatureName: input.signatureName,
      note: input.note,
      photos: storedPhotos,
      signature: storedSignature,
      deliveredAt,
      recordedBy: actor ? { id: actor.user.id, username: actor.user.username } : null,
    });
    if (!proof) throw new ConflictError(PROOF_EXISTS, { code: 'proof_of_delivery_exists' });
    const event = await addEvent(
      parcel.id,
      {
        status: 'Delivered',
        location: destination?.city ?? '',
        description:
          stops > 1
            ? `Stop ${index + 1} of ${stops} delivered, proof of delivery recorded`
            : 'Delivered, proof of delivery recorded',
        timestamp: deliveredAt,
        // Shown where it happened: the stop's own zone.
        timeZone: stopTimeZone(parcel, index),
        stop: index,
      },
      actor,
    );
    if (!event) throw new NotFoundError('Parcel not found');
    proof = (await setProofEvent(proof.id, event.id)) ?? proof;
  } catch (error) {
    if (proof) await removeProof(proof.id);
    await deleteFiles(fileIds);
    throw error;
  }

  await auditRecord(actor, 'create', 'proof', {
    label: `${parcel.trackingNumber}, stop ${index + 1}`,
    after: proof,
  });
  const now = await getParcelStatus(parcel.id);
  const parcelStatus = now?.status ?? parcel.status;
  if (parcelStatus === 'Delivered') {
    await emitWebhookEvent('parcel.delivered', {
      parcel: { id: parcel.id, trackingNumber: parcel.trackingNumber, status: parcelStatus },
      proofOfDelivery: proof,
      proofOfDeliveryIds: await proofIds(parcel.id),
    });
  }
  return { proof, parcelStatus };
}
