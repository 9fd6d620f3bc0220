import mongoose from 'mongoose';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { AuditEntry } from '~/models/audit.server';
import { getParcel } from '~/models/parcel-reads.server';
import { type SerializedParcel } from '~/models/parcel.server';
import { ProofOfDelivery } from '~/models/proof-of-delivery.server';
import { countFiles } from '~/models/stored-file.server';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import {
  action as proofApi,
  loader as proofListApi,
} from '~/routes/api.parcels.$id.proof-of-delivery';
import { loader as proofPdfApi } from '~/routes/api.parcels.$id.proof-of-delivery.$proofId[.]pdf';
import { loader as fileApi } from '~/routes/api.proof-of-delivery.files.$fileId';
import { loader as publicTrackApi } from '~/routes/api.tracking.track.$trackingNumber';
import { UNKNOWN_FIELD } from '~/http/api.server';
import { connectDb } from '~/lib/db.server';
import { createParcel } from '~/services/parcels.server';
import { deleteEvent } from '~/services/tracking-events.server';
import { callRoute } from '../support/api';
import { createUsers, type TestUser } from '../support/factories';
import { fileOf, jpegWithGps, pngHeaderOnly, signaturePng } from '../support/images';
import { pdfPageCount, pdfText } from '../support/pdf';
import { apiError } from '../support/api-error';

let staff: TestUser;
let viewer: TestUser;
let courier: TestUser;

function newParcel(name: string, stops: Array<{ name: string; city: string }> = []) {
  return createParcel({
    sender: { name: 'Proof Sender', email: '', phone: '', address: '1 Dock Rd' },
    recipient: { name, email: '', phone: '', address: '742 Evergreen Terrace' },
    destinations: stops.map((s) => ({
      name: s.name,
      address: `${s.name} Street 1`,
      city: s.city,
      country: 'USA',
      postalCode: '',
    })),
    estimatedDelivery: undefined,
  } as never) as Promise<SerializedParcel>;
}

/** The proof of delivery form of `fields` posted to the parcel's endpoint. */
function post(parcelId: string, fields: ProofFields, token = staff.token) {
  return callRoute(proofApi, `/api/parcels/${parcelId}/proof-of-delivery`, {
    token,
    params: { id: parcelId },
    body: proofForm(fields),
  });
}

type ProofFields = Record<string, string | File | File[]>;

function proofForm(fields: ProofFields) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) form.append(key, v);
  return form;
}

const eventCount = async (id: string) => (await getParcel(id))!.events?.length ?? 0;

beforeAll(async () => {
  await connectDb();
  ({ staff, viewer, courier } = await createUsers(['staff', 'viewer', 'courier'], 'pod'));
  await createWebhook({
    url: 'https://hooks.example.test/pod',
    events: ['parcel.delivered'],
    description: '',
  });
});

describe('POST /api/parcels/:id/proof-of-delivery', () => {
  it('stores a photo without its Exif and GPS, at most 2,048 px, and delivers the parcel', async () => {
    const parcel = await newParcel('Jane Proof');
    const original = await jpegWithGps(3000, 2000);
    expect((await sharp(original).metadata()).exif?.toString('latin1')).toContain('TestCam');

    const res = await post(parcel.id, {
      receivedBy: 'Jane Proof',
      note: 'Left with the recipient',
      photo: fileOf(original, 'door.jpg', 'image/jpeg'),
      signature: fileOf(await signaturePng(), 'signature.png', 'image/png'),
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.parcel).toEqual({
      id: parcel.id,
      trackingNumber: parcel.trackingNumber,
      status: 'Delivered',
    });
    const proof = body.proofOfDelivery;
    expect(proof).toMatchObject({
      parcelId: parcel.id,
      destination: 0,
      stops: 1,
      receivedBy: 'Jane Proof',
      note: 'Left with the recipient',
      recordedBy: 'pod-staff',
    });
    expect(proof.photos).toHaveLength(1);
    expect(proof.photos[0].url).toBe(`/api/proof-of-delivery/files/${proof.photos[0].id}`);
    expect(proof.signature.contentType).toBe('image/png');

    // What comes back is a fresh JPEG: no Exif (no camera, no GPS), no other metadata.
    const photo = await callRoute(fileApi, proof.photos[0].url, {
      token: viewer.token,
      params: { fileId: proof.photos[0].id },
    });
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    expect(photo.headers.get('cache-control')).toContain('private');
    expect(photo.headers.get('x-content-type-options')).toBe('nosniff');
    const stored = Buffer.from(await photo.arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(stored.toString('latin1')).not.toContain('TestCam');
    expect([meta.width, meta.height]).toEqual([2048, 1365]);

    // The stop's Delivered event, through the events service; the parcel is Delivered.
    const after = (await getParcel(parcel.id))!;
    expect(after.status).toBe('Delivered');
    expect(after.actualDelivery).not.toBeNull();
    expect(after.events![0]).toMatchObject({
      id: proof.eventId,
      status: 'Delivered',
      description: 'Delivered, proof of delivery recorded',
    });

    // Audit and webhook with the proof ids.
    const audit = await AuditEntry.findOne({ entity: 'proof', entityId: proof.id }).lean();
    expect(audit).toMatchObject({ action: 'create', via: 'api', parcelId: parcel.id });
    const deliveries = await WebhookDelivery.find({ type: 'parcel.delivered' }).lean();
    const payloads = deliveries.map((d) => JSON.parse(d.payload).data);
    expect(payloads).toContainEqual(
      expect.objectContaining({
        parcel: expect.objectContaining({ id: parcel.id, status: 'Delivered' }),
        proofOfDeliveryIds: [proof.id],
      }),
    );

    // Listed, as a one-page PDF, and never on the public tracking answer.
    const list = await callRoute(proofListApi, `/api/parcels/${parcel.id}/proof-of-delivery`, {
      token: viewer.token,
      params: { id: parcel.id },
    });
    expect((await list.json()).proofsOfDelivery.map((p: { id: string }) => p.id)).toEqual([
      proof.id,
    ]);
    const pdfRes = await callRoute(proofPdfApi, proof.pdfUrl, {
      token: viewer.token,
      params: { id: parcel.id, proofId: proof.id },
    });
    expect(pdfRes.status).toBe(200);
    expect(pdfRes.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await pdfRes.arrayBuffer());
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfText(pdf);
    for (const part of ['Proof of delivery', parcel.trackingNumber, 'Jane Proof', 'pod-staff'])
      expect(text).toContain(part);

    const publicRes = await callRoute(
      publicTrackApi,
      `/api/tracking/track/${parcel.trackingNumber}`,
      { params: { trackingNumber: parcel.trackingNumber } },
    );
    const publicText = await publicRes.text();
    expect(publicRes.status).toBe(200);
    expect(publicText).not.toContain(proof.photos[0].id);
    expect(publicText).not.toContain('proof-of-delivery/files');
  });

  it('refuses a file that is not an image, and stores nothing', async () => {
    const parcel = await newParcel('Not An Image');
    const [files, proofs, events] = await Promise.all([
      countFiles(),
      ProofOfDelivery.countDocuments(),
      eventCount(parcel.id),
    ]);
    const res = await post(parcel.id, {
      receivedBy: 'Someone',
      photo: [
        fileOf(await jpegWithGps(40, 30), 'fine.jpg', 'image/jpeg'),
        fileOf('%PDF-1.4 not a photo', 'door.jpg', 'image/jpeg'),
      ],
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual(
      apiError('Photo 2 is not a JPEG, PNG or WebP image', 'unsupported_image', {
        details: { 'photo.1': ['Photo 2 is not a JPEG, PNG or WebP image'] },
      }),
    );
    expect(await countFiles()).toBe(files);
    expect(await ProofOfDelivery.countDocuments()).toBe(proofs);
    expect(await eventCount(parcel.id)).toBe(events);
    expect((await getParcel(parcel.id))!.status).toBe('Pending');

    // A signature must be a PNG: a JPEG is refused the same way.
    const jpegSignature = await post(parcel.id, {
      receivedBy: 'Someone',
      signature: fileOf(await jpegWithGps(40, 30), 'sig.png', 'image/png'),
    });
    expect(jpegSignature.status).toBe(415);
    expect((await jpegSignature.json()).details).toEqual({
      signature: ['The signature is not a PNG image'],
    });
    expect(await countFiles()).toBe(files);
  });

  it('refuses a picture that would decode too large from its header, before decoding it', async () => {
    const parcel = await newParcel('Too Many Pixels');
    const files = await countFiles();
    // 10,950 × 10,950 of 16-bit RGBA: 120 megapixels, 959 MB decoded, in a file of a few bytes.
    const deep = await post(parcel.id, {
      receivedBy: 'Someone',
      photo: [
        fileOf(await jpegWithGps(40, 30), 'fine.jpg', 'image/jpeg'),
        fileOf(
          pngHeaderOnly(10_950, 10_950, { bitDepth: 16, colorType: 6 }),
          'deep.png',
          'image/png',
        ),
      ],
    });
    expect(deep.status).toBe(413);
    const message =
      'Photo 2 is too large: at most 50 megapixels and 160 MB decoded (it is 10,950 × 10,950 pixels, 960 MB decoded)';
    expect(await deep.json()).toEqual({
      error: message,
      message,
      code: 'image_too_large',
      details: { 'photo.1': [message] },
    });
    // Past the pixel limit, whatever the bytes: said so, not "not an image".
    const wide = await post(parcel.id, {
      receivedBy: 'Someone',
      photo: fileOf(pngHeaderOnly(50_000, 50_000), 'wide.png', 'image/png'),
    });
    expect(wide.status).toBe(413);
    expect((await wide.json()).details.photo[0]).toMatch(
      /^The photo is too large: at most 50 megapixels and 160 MB decoded \(it is 50,000 × 50,000 pixels/,
    );
    // Under both limits but 16 bits deep: 40 megapixels of RGBA at 2 bytes a sample is 320 MB.
    const signature = await post(parcel.id, {
      receivedBy: 'Someone',
      signature: fileOf(
        pngHeaderOnly(8000, 5000, { bitDepth: 16, colorType: 6 }),
        's.png',
        'image/png',
      ),
    });
    expect(signature.status).toBe(413);
    expect((await signature.json()).details.signature[0]).toContain('320 MB decoded');
    // A header within the limits is decoded, and this one's pixels are not there.
    const broken = await post(parcel.id, {
      receivedBy: 'Someone',
      photo: fileOf(pngHeaderOnly(300, 200), 'b.png', 'image/png'),
    });
    expect(broken.status).toBe(415);
    expect(await countFiles()).toBe(files);
    expect(await eventCount(parcel.id)).toBe(0);
  });

  it('validates the fields, the stop and the role', async () => {
    const parcel = await newParcel('Fields');
    const missing = await post(parcel.id, { note: 'x', extra: 'y' });
    expect(missing.status).toBe(400);
    expect((await missing.json()).details).toEqual({ extra: [UNKNOWN_FIELD] });
    // A file under a name the endpoint does not take is refused the same way, not dropped.
    const unknownFile = await post(parcel.id, {
      receivedBy: 'A',
      selfie: fileOf(await jpegWithGps(20, 20), 'me.jpg', 'image/jpeg'),
    });
    expect(unknownFile.status).toBe(400);
    expect((await unknownFile.json()).details).toEqual({ selfie: [UNKNOWN_FIELD] });

    const noName = await post(parcel.id, { receivedBy: '  ' });
    expect(noName.status).toBe(400);
    expect((await noName.json()).details).toEqual({
      receivedBy: ['Enter the name of the person who received the parcel'],
    });

    const tooMany = await post(parcel.id, {
      receivedBy: 'A',
      photo: await Promise.all(
        [1, 2, 3, 4].map(async (i) => fileOf(await jpegWithGps(20, 20), `${i}.jpg`, 'image/jpeg')),
      ),
    });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).details).toEqual({ photo: ['At most 3 photos'] });

    const noStop = await post(parcel.id, { receivedBy: 'A', destination: '1' });
    expect(noStop.status).toBe(400);
    expect((await noStop.json()).details).toEqual({
      destination: ['This parcel has one stop: leave the destination out or send 0'],
    });

    const json = await callRoute(proofApi, `/api/parcels/${parcel.id}/proof-of-delivery`, {
      method: 'POST',
      token: staff.token,
      params: { id: parcel.id },
      body: { receivedBy: 'A' },
    });
    expect(json.status).toBe(415);

    const asViewer = await post(parcel.id, { receivedBy: 'A' }, viewer.token);
    expect(asViewer.status).toBe(403);
    expect((await asViewer.json()).error).toBe('This needs the courier role');

    const unknown = new mongoose.Types.ObjectId().toString();
    expect((await post(unknown, { receivedBy: 'A' })).status).toBe(404);

    // Without photos or a signature pad, a typed name is the signature; a courier records it.
    const typed = await post(
      parcel.id,
      { receivedBy: 'A', signatureName: 'A. Person' },
      courier.token,
    );
    expect(typed.status).toBe(201);
    expect((await typed.json()).proofOfDelivery).toMatchObject({
      photos: [],
      signature: null,
      signatureName: 'A. Person',
    });
    const again = await post(parcel.id, { receivedBy: 'B' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'proof_of_delivery_exists' });
  });

  it('delivers the parcel only with its last stop', async () => {
    const parcel = await newParcel('Two Stops', [
      { name: 'First Stop', city: 'Springfield' },
      { name: 'Second Stop', city: 'Shelbyville' },
    ]);
    const second = await post(parcel.id, { receivedBy: 'B', destination: '1' });
    expect(second.status).toBe(201);
    const secondProof = (await second.json()).proofOfDelivery;
    expect(secondProof.stop).toMatchObject({ name: 'Second Stop', city: 'Shelbyville' });
    let now = (await getParcel(parcel.id))!;
    expect(now.status).toBe('Pending');
    expect(now.events![0]).toMatchObject({
      status: 'Delivered',
      location: 'Shelbyville',
      description: 'Stop 2 of 2 delivered, proof of delivery recorded',
    });
    const before = await WebhookDelivery.countDocuments({ type: 'parcel.delivered' });

    const first = await post(parcel.id, { receivedBy: 'A' });
    expect(first.status).toBe(201);
    const firstProof = (await first.json()).proofOfDelivery;
    now = (await getParcel(parcel.id))!;
    expect(now.status).toBe('Delivered');
    const deliveries = await WebhookDelivery.find({ type: 'parcel.delivered' })
      .sort({ createdAt: -1 })
      .lean();
    expect(deliveries).toHaveLength(before + 1);
    expect(JSON.parse(deliveries[0]!.payload).data.proofOfDeliveryIds).toEqual([
      firstProof.id,
      secondProof.id,
    ]);

    // Deleting the first stop's Delivered event leaves the parcel undelivered again.
    await deleteEvent(firstProof.eventId);
    now = (await getParcel(parcel.id))!;
    expect(now.status).toBe('Pending');
    expect(now.actualDelivery).toBeNull();
  });

  it('serves files only to signed-in staff', async () => {
    const parcel = await newParcel('Files');
    const res = await post(parcel.id, {
      receivedBy: 'C',
      photo: fileOf(await jpegWithGps(64, 48), 'p.webp', 'image/webp'),
    });
    const proof = (await res.json()).proofOfDelivery;
    const url = proof.photos[0].url;
    const anonymous = await callRoute(fileApi, url, { params: { fileId: proof.photos[0].id } });
    expect(anonymous.status).toBe(401);
    const unknown = await callRoute(fileApi, url, {
      token: viewer.token,
      params: { fileId: new mongoose.Types.ObjectId().toString() },
    });
    expect(unknown.status).toBe(404);
  });
});
