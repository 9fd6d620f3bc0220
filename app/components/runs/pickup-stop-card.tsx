import { Form } from '@remix-run/react';
import type { FormEventHandler } from 'react';
import { ReasonButtons } from '~/components/scan/failed-reasons';
import { MapsLink } from './maps-link';
import { PICKUP_MISSED_REASONS, PICKUP_MISSED_REASON_CODES } from '~/schemas/event-statuses';

export type PickupStop = {
  sequence: number;
  pickupId: string;
  accountName: string;
  address: string;
  mapsHref: string;
  summary: string;
  parcelCount: number;
  mostCollected: number;
  notes: string;
  eta: string | null;
  expected: string | null;
  outcome: string | null;
};

export const OUTCOME_WORDS: Record<string, string> = {
  collected: 'Collected',
  not_collected: 'Not collected',
};

/**
 * A pickup stop on the courier's run: whose it is, where, its window and parcel count, the
 * shipper's notes and a maps link; once the run has started, one tap to Collected (the count
 * chosen from a list, the expected one first) or to Not collected with its reason. Plain forms;
 * `onSubmit` may keep the outcome on the phone instead (offline), which it then says `waiting`.
 */
export function PickupStopCard({
  stop,
  live,
  next,
  waiting,
  onSubmit,
}: {
  stop: PickupStop;
  live: boolean;
  next: boolean;
  /** What this stop's outcome waits to send, if it does. */
  waiting?: string;
  onSubmit?: FormEventHandler<HTMLFormElement>;
}) {
  const headingId = `stop-${stop.pickupId}`;
  return (
    <li
      className={`card space-y-3 p-4 ${next ? 'ring-2 ring-brand-600' : ''}`}
      aria-labelledby={headingId}
    >
      <div>
        <h3 id={headingId} className="text-lg font-semibold text-gray-900">
          {next ? 'Next stop: ' : ''}Stop {stop.sequence} · Pickup
          {stop.outcome ? ` · ${OUTCOME_WORDS[stop.outcome] ?? stop.outcome}` : ''}
          {waiting && !stop.outcome ? ` · ${waiting}, waiting to send` : ''}
        </h3>
        <p className="text-gray-900">
          <strong>{stop.accountName}</strong>
          {stop.address ? `, ${stop.address}` : ''}
        </p>
        <p className="text-sm text-gray-800">{stop.summary}</p>
        {stop.expected && !stop.outcome ? (
          <p className="text-sm text-gray-700">Expected {stop.expected}</p>
        ) : null}
        {stop.notes ? <p className="text-sm text-gray-800">{stop.notes}</p> : null}
        <p className="mt-2 text-sm">
          <MapsLink href={stop.mapsHref} />
        </p>
      </div>
      {live && !stop.outcome && !waiting ? (
        <div className="space-y-3 border-t border-gray-200 pt-3">
          <Form method="post" className="flex items-end gap-2" onSubmit={onSubmit}>
            <input type="hidden" name="intent" value="pickup" />
            <input type="hidden" name="pickupId" value={stop.pickupId} />
            <label className="flex-1 text-sm font-medium text-gray-800">
              Parcels collected
              <select
                name="collectedCount"
                defaultValue={stop.parcelCount}
                className="mt-1 block min-h-11 w-full rounded border-gray-300"
              >
                {Array.from({ length: stop.mostCollected }, (_, i) => i + 1).map((count) => (
                  <option key={count} value={count}>
                    {count}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="submit"
              name="outcome"
              value="collected"
              className="btn-primary min-h-11 flex-1"
            >
              Collected
            </button>
          </Form>
          <Form method="post" onSubmit={onSubmit}>
            <input type="hidden" name="intent" value="pickup" />
            <input type="hidden" name="pickupId" value={stop.pickupId} />
            <input type="hidden" name="outcome" value="not_collected" />
            <ReasonButtons
              legend="Not collected: why?"
              otherLabel="Not collected: other"
              reasons={PICKUP_MISSED_REASON_CODES.filter((code) => code !== 'other').map(
                (code) => ({ code, label: PICKUP_MISSED_REASONS[code] }),
              )}
            />
          </Form>
        </div>
      ) : null}
    </li>
  );
}
