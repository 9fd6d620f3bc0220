import { getParcel } from '~/models/parcel-reads.server';
import { ConflictError, NotFoundError } from '~/lib/errors.server';
import type { TestAdvanceInput, TestAdvanceStep } from '~/schemas/account';
import type { Actor } from './audit.server';
import { addEvent } from './tracking-events.server';
import { recordProofOfDelivery } from './proof-of-delivery.server';

/**
 * Test mode: an account's test parcel (`livemode: false`) moved along a realistic life on
 * request, Pending → In Transit → Out for Delivery → Delivered with a sample proof, or a failed
 * attempt with its reason. Each step is a real event through the same services as live data, so
 * it fires the same webhooks; its e-mails go to the account's test log, never to the recipient.
 */

const LIFE: TestAdvanceStep[] = ['In Transit', 'Out for Delivery', 'Delivered'];
const PLACE = 'Test mode';

/** The steps from a status to `to` (by default the next one), each taken in turn. */
function stepsFrom(status: string, to: TestAdvanceStep | undefined): TestAdvanceStep[] {
  if (status === 'Delivered' || status === 'Returned')
    throw new ConflictError(`This test parcel is ${status}: it has nowhere further to go`);
  const at = status === 'Failed' ? 1 : LIFE.indexOf(status as TestAdvanceStep) + 1;
  if (to === 'Failed') return [...LIFE.slice(at, 2), 'Failed'];
  const until = to ? LIFE.indexOf(to) + 1 : at + 1;
  if (until <= at) throw new ConflictError(`This test parcel is already past ${to}`);
  return LIFE.slice(at, until);
}

async function take(
  parcelId: string,
  step: TestAdvanceStep,
  input: TestAdvanceInput,
  actor: Actor,
) {
  if (step === 'Failed') {
    await addEvent(
      parcelId,
      {
        status: 'Failed Delivery',
        location: PLACE,
        description: 'A sample failed attempt',
        reason: input.reason ?? 'recipient_unavailable',
      },
      actor,
    );
    return;
  }
  if (step !== 'Delivered') {
    await addEvent(parcelId, { status: step, location: PLACE, description: '' }, actor);
    return;
  }
  const parcel = await getParcel(parcelId);
  const stops = Math.max(parcel?.destinations.length ?? 1, 1);
  for (let destination = 0; destination < stops; destination += 1)
    await recordProofOfDelivery(
      parcelId,
      {
        receivedBy: 'Sample Recipient',
        destination,
        note: 'A sample proof of delivery (test mode)',
        signatureName: 'Sample Recipient',
        photo: [],
      },
      actor,
    );
}

/** Moves a test parcel on; the parcel as it is now. Live parcels are not there (NotFoundError). */
export async function advanceTestParcel(parcelId: string, input: TestAdvanceInput, actor: Actor) {
  const parcel = await getParcel(parcelId);
  if (!parcel || parcel.livemode) throw new NotFoundError('Test parcel not found');
  for (const step of stepsFrom(parcel.status, input.to)) await take(parcelId, step, input, actor);
  return getParcel(parcelId);
}
