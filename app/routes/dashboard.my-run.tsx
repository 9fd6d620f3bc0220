import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FailedReasons } from '~/components/scan/failed-reasons';
import { myRunAction, myRunLoader } from '~/http/my-run-pages.server';
import { useCompany } from '~/utils/use-company';
import { formatDateTime } from '~/utils/format';

/**
 * The courier's run on their phone: today's stops in order, the next one on top, each with what
 * the door needs (tracking number, address, the recipient's preferences and notes, a link to the
 * maps app) and one tap to Delivered (the proof form) or Failed (its reason). Start run sends
 * every stop out for delivery at once. Every button is a plain form post.
 */
export { myRunAction as action, myRunLoader as loader };

export const meta: MetaFunction = () => [{ title: 'My run · Management dashboard' }];

type Stop = ReturnType<typeof useLoaderData<typeof myRunLoader>>['runs'][number]['stops'][number];

function StopCard({ stop, live, next }: { stop: Stop; live: boolean; next: boolean }) {
  const { timeZone } = useCompany();
  return (
    <li
      className={`card space-y-3 p-4 ${next ? 'ring-2 ring-brand-600' : ''}`}
      aria-labelledby={`stop-${stop.parcelId}`}
    >
      <div>
        <h3 id={`stop-${stop.parcelId}`} className="text-lg font-semibold text-gray-900">
          {next ? 'Next stop: ' : ''}Stop {stop.sequence}
          {stop.outcome ? ` · ${stop.outcome === 'delivered' ? 'Delivered' : 'Failed'}` : ''}
        </h3>
        <p className="font-mono text-base font-semibold">{stop.trackingNumber}</p>
        <p className="text-gray-900">
          <strong>{stop.recipientName || '—'}</strong>
          {stop.address ? `, ${stop.address}` : ''}
        </p>
        {stop.eta && !stop.outcome ? (
          <p className="text-sm text-gray-700">Expected {formatDateTime(stop.eta, timeZone)}</p>
        ) : null}
        {stop.preferences.length ? (
          <ul className="mt-1 list-disc pl-5 text-sm text-gray-800">
            {stop.preferences.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
        <p className="mt-2 flex flex-wrap gap-3 text-sm">
          <a
            href={stop.mapsHref}
            className="inline-flex min-h-11 items-center underline"
            target="_blank"
            rel="noreferrer"
          >
            Open in maps
          </a>
          {stop.phone ? (
            <a href={`tel:${stop.phone}`} className="inline-flex min-h-11 items-center underline">
              Call {stop.phone}
            </a>
          ) : null}
        </p>
      </div>
      {live && !stop.outcome ? (
        <div className="space-y-3 border-t border-gray-200 pt-3">
          <Link to={stop.proofHref} className="btn-primary min-h-11 w-full">
            Delivered
          </Link>
          <Form method="post" className="space-y-2">
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
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">My run</h1>
      {answer?.error ? (
        <p role="alert" className="text-sm text-red-700">
          {answer.error}
        </p>
      ) : null}
      {runs.length === 0 ? <p className="text-gray-700">No run for you today.</p> : null}
      {runs.map((run) => {
        // The next stop on top, then those after it, then those done.
        const left = run.stops.filter((stop) => !stop.outcome);
        const done = run.stops.filter((stop) => stop.outcome);
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
              {[...left, ...done].map((stop, i) => (
                <StopCard
                  key={stop.parcelId}
                  stop={stop}
                  live={run.status === 'started'}
                  next={run.status === 'started' && i === 0 && !stop.outcome}
                />
              ))}
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
