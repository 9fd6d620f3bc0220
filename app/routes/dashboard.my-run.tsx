import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useRevalidator } from '@remix-run/react';
import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent } from 'react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FailedReasons } from '~/components/scan/failed-reasons';
import { MapsLink } from '~/components/runs/maps-link';
import { OUTCOME_WORDS, PickupStopCard } from '~/components/runs/pickup-stop-card';
import { myRunAction, myRunLoader } from '~/http/my-run-pages.server';
import { useHydrated } from '~/utils/use-hydrated';
import { scanBody, useOutbox } from '~/utils/outbox';
import { keepWhenQueued, multipartBody, pickupOutcomeBody, type Outbox } from '~/utils/run-outbox';

/**
 * The courier's run on their phone: today's stops in order, the next one on top, each with what
 * the door needs (tracking number, address, the recipient's preferences and notes, a link to the
 * maps app) and one tap to Delivered (the proof form) or Failed (its reason); a pickup stop with
 * whose it is, its window, count and notes, and one tap to Collected or Not collected
 * (PickupStopCard). Start run sends every parcel out for delivery at once. Every button is a plain form post. With JavaScript, a
 * stop's outcome made offline (or while others wait) is kept on the phone, the proof's photos
 * and signature with it, and sent in order once the connection is back (useOutbox).
 */
export { myRunAction as action, myRunLoader as loader };

export const meta: MetaFunction = () => [{ title: 'My run · Management dashboard' }];

// The proof form drawn here offline, with its signature pad: fetched once the page is interactive.
const loadProofForm = () => import('~/components/parcels/proof-of-delivery-form');
const ProofOfDeliveryForm = lazy(() =>
  loadProofForm().then((module) => ({ default: module.ProofOfDeliveryForm })),
);

// What waits to be sent, once the page can keep anything: its code comes after the first load.
const OutboxStatus = lazy(() =>
  import('~/components/scan/outbox-status').then((m) => ({ default: m.OutboxStatus })),
);

type AnyStop = ReturnType<
  typeof useLoaderData<typeof myRunLoader>
>['runs'][number]['stops'][number];
type Stop = Extract<AnyStop, { kind: 'delivery' }>;
type PickupStop = Extract<AnyStop, { kind: 'pickup' }>;

/** A proof's fields to keep: the files chosen or drawn, and the typed fields not left empty. */
function proofFields(form: HTMLFormElement) {
  const fields = new FormData();
  for (const [name, value] of new FormData(form))
    if (typeof value === 'string' ? value !== '' : value.size > 0) fields.append(name, value);
  return multipartBody(fields);
}

/** A pickup stop's Collected or Not collected, kept for POST /api/pickups/:id/outcome offline. */
const keepPickupOutcome = (outbox: Outbox, stop: PickupStop) =>
  keepWhenQueued(outbox, (form, submitter) => {
    const json = pickupOutcomeBody(form, submitter);
    return {
      url: `/api/pickups/${stop.pickupId}/outcome`,
      body: { json },
      trackingNumber: '',
      pickup: { id: stop.pickupId, accountName: stop.accountName },
      what: OUTCOME_WORDS[String(json.outcome)] ?? String(json.outcome),
    };
  });

function StopCard({
  stop,
  live,
  next,
  waiting,
  outbox,
}: {
  stop: Stop;
  live: boolean;
  next: boolean;
  /** What this stop's outcome waits to send, if it does. */
  waiting: string | undefined;
  outbox: Outbox;
}) {
  const { shouldQueue, keep } = outbox;
  const [proofHere, setProofHere] = useState(false);
  const keepFailed = keepWhenQueued(outbox, (form, submitter) => ({
    url: '/api/scans',
    body: { json: scanBody(form, submitter) },
    trackingNumber: stop.trackingNumber,
    what: 'Failed Delivery',
  }));
  const keepProof = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void proofFields(event.currentTarget).then((body) =>
      keep({
        url: `/api/parcels/${stop.parcelId}/proof-of-delivery`,
        body,
        trackingNumber: stop.trackingNumber,
        what: 'Delivered',
      }),
    );
    setProofHere(false);
  };
  return (
    <li
      className={`card space-y-3 p-4 ${next ? 'ring-2 ring-brand-600' : ''}`}
      aria-labelledby={`stop-${stop.parcelId}`}
    >
      <div>
        <h3 id={`stop-${stop.parcelId}`} className="text-lg font-semibold text-gray-900">
          {next ? 'Next stop: ' : ''}Stop {stop.sequence}
          {stop.outcome ? ` · ${stop.outcome === 'delivered' ? 'Delivered' : 'Failed'}` : ''}
          {waiting && !stop.outcome ? ` · ${waiting}, waiting to send` : ''}
        </h3>
        <p className="font-mono text-base font-semibold">{stop.trackingNumber}</p>
        <p className="text-gray-900">
          <strong>{stop.recipientName || '—'}</strong>
          {stop.address ? `, ${stop.address}` : ''}
        </p>
        {stop.expected && !stop.outcome ? (
          <p className="text-sm text-gray-700">Expected {stop.expected}</p>
        ) : null}
        {stop.preferences.length ? (
          <ul className="mt-1 list-disc pl-5 text-sm text-gray-800">
            {stop.preferences.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
        <p className="mt-2 flex flex-wrap gap-3 text-sm">
          <MapsLink href={stop.mapsHref} />
          {stop.phone ? (
            <a href={`tel:${stop.phone}`} className="inline-flex min-h-11 items-center underline">
              Call {stop.phone}
            </a>
          ) : null}
        </p>
      </div>
      {live && !stop.outcome && !waiting && proofHere ? (
        <Suspense>
          <div className="border-t border-gray-200 pt-3">
            <ProofOfDeliveryForm
              destination={Number(
                new URL(stop.proofHref, 'http://x').searchParams.get('destination'),
              )}
              lastResult={null}
              closeTo={stop.proofHref}
              large
              onSubmit={keepProof}
              onCancel={() => setProofHere(false)}
            />
          </div>
        </Suspense>
      ) : live && !stop.outcome && !waiting ? (
        <div className="space-y-3 border-t border-gray-200 pt-3">
          <Link
            to={stop.proofHref}
            className="btn-primary min-h-11 w-full"
            onClick={(event) => {
              // Offline the proof form opens here, and the proof waits on the phone.
              if (!shouldQueue()) return;
              event.preventDefault();
              setProofHere(true);
            }}
          >
            Delivered
          </Link>
          <Form method="post" className="space-y-2" onSubmit={keepFailed}>
            <input type="hidden" name="location" value={stop.location} />
            <FailedReasons trackingNumber={stop.trackingNumber} />
          </Form>
        </div>
      ) : null}
    </li>
  );
}

export default function MyRun() {
  const { runs } = useLoaderData<typeof myRunLoader>();
  const answer = useActionData<typeof myRunAction>() as { error?: string } | undefined;
  const revalidator = useRevalidator();
  // Once a kept outcome is sent, the run is read again: its stop is done.
  const hydrated = useHydrated();
  const outbox = useOutbox({ onSent: useCallback(() => revalidator.revalidate(), [revalidator]) });
  // Offline the proof form opens here: it and its signature pad must already be on the phone.
  const [proofReady, setProofReady] = useState(false);
  useEffect(() => {
    void loadProofForm()
      .then((module) => module.loadSignaturePad())
      .then(() => setProofReady(true));
  }, []);
  // What waits, by stop: a parcel's tracking number, or a pickup's id.
  const waitingFor = new Map(
    outbox.waiting.map((entry) => [entry.pickup?.id ?? entry.trackingNumber, entry.what]),
  );
  const waitingAt = (stop: AnyStop) =>
    waitingFor.get(stop.kind === 'pickup' ? stop.pickupId : stop.trackingNumber);
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">My run</h1>
      {answer?.error ? (
        <p role="alert" className="text-sm text-red-700">
          {answer.error}
        </p>
      ) : null}
      {hydrated ? (
        <Suspense fallback={null}>
          <OutboxStatus
            waiting={outbox.waiting}
            sent={outbox.sent}
            ready={outbox.ready && proofReady}
          />
        </Suspense>
      ) : null}
      {runs.length === 0 ? <p className="text-gray-700">No run for you today.</p> : null}
      {runs.map((run) => {
        // The next stop on top, then those after it, then those done.
        const isDone = (stop: AnyStop) => !!stop.outcome || !!waitingAt(stop);
        const left = run.stops.filter((stop) => !isDone(stop));
        const done = run.stops.filter(isDone);
        return (
          <section
            key={run.id}
            aria-label={`Run of ${run.stops.length} stops`}
            className="space-y-3"
          >
            <p className="text-sm text-gray-700">
              {run.stops.length} stops ·{' '}
              {run.status === 'planned'
                ? 'Not started'
                : run.status === 'started'
                  ? `${left.length} to go`
                  : 'Completed'}
            </p>
            {run.status === 'planned' ? (
              <Form method="post">
                <input type="hidden" name="intent" value="start" />
                <input type="hidden" name="runId" value={run.id} />
                <button type="submit" className="btn-primary min-h-11 w-full">
                  Start run
                </button>
              </Form>
            ) : null}
            <ol className="space-y-3">
              {[...left, ...done].map((stop, i) =>
                stop.kind === 'pickup' ? (
                  <PickupStopCard
                    key={stop.key}
                    stop={stop}
                    live={run.status === 'started'}
                    next={run.status === 'started' && i === 0 && !isDone(stop)}
                    waiting={waitingAt(stop)}
                    onSubmit={keepPickupOutcome(outbox, stop)}
                  />
                ) : (
                  <StopCard
                    key={stop.key}
                    stop={stop}
                    live={run.status === 'started'}
                    next={run.status === 'started' && i === 0 && !isDone(stop)}
                    waiting={waitingAt(stop)}
                    outbox={outbox}
                  />
                ),
              )}
            </ol>
          </section>
        );
      })}
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
