import type { ReactNode } from 'react';
import type { PublicTrackingResult } from '~/models/parcel-tracking-numbers.server';
import type { TrackingGlance } from '~/services/public-tracking.server';
import { useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { longDateTime, type ProgressStep } from '~/utils/delivery-headline';
import { CUSTOM_EVENT_STATUS } from '~/schemas/constants';
import { keepLanguage } from '~/utils/page-language';
import { usePublicMessages } from '~/components/public/public-messages';

type Result = PublicTrackingResult;
type PublicEvent = Result['events'][number];

/** One line of a lookup of several numbers. */
export type TrackingSummary =
  | {
      trackingNumber: string;
      found: true;
      status: string;
      /** The headline sentence: when it arrives, or when it was delivered. */
      headline: string;
      latestEvent: PublicEvent | null;
    }
  | { trackingNumber: string; found: false; error: string; hint?: string | null };

const STATUS_STYLES: Record<string, string> = {
  Processing: 'bg-sky-100 text-sky-800 ring-sky-300',
  'Picked Up': 'bg-yellow-100 text-yellow-800 ring-yellow-300',
  'In Transit': 'bg-blue-100 text-blue-800 ring-blue-300',
  'Out for Delivery': 'bg-purple-100 text-purple-800 ring-purple-300',
  Delivered: 'bg-green-100 text-green-800 ring-green-300',
};
const NEUTRAL = 'bg-gray-100 text-gray-800 ring-gray-300';

/** A status, an event's or a parcel's, in the page's language; a Custom Status's own words. */
function useStatusWords() {
  const { t } = useTranslation('public');
  return (event: { status: string; customStatus?: string | null }) =>
    event.status === CUSTOM_EVENT_STATUS && event.customStatus
      ? event.customStatus
      : t(`status.${event.status}`, { defaultValue: event.status });
}

export function PublicStatusBadge({ status }: { status: string }) {
  const statusWords = useStatusWords();
  return (
    <span
      className={`inline-flex items-center rounded-full px-3 py-1 text-sm font-semibold ring-1 ring-inset ${STATUS_STYLES[status] ?? NEUTRAL}`}
      data-status={status}
    >
      {statusWords({ status })}
    </span>
  );
}

/** The outline drawn for each status that has its own icon; any other status is a dot. */
const EVENT_ICON_SHAPES: Record<string, ReactNode> = {
  'Package Picked Up': (
    <>
      <path d="M3 7l9-4 9 4v10l-9 4-9-4z" />
      <path d="M3 7l9 4 9-4M12 11v10" />
    </>
  ),
  'In Transit': (
    <>
      <path d="M1 6h13v10H1zM14 10h5l3 3v3h-8z" />
      <circle cx="5" cy="18" r="2" />
      <circle cx="18" cy="18" r="2" />
    </>
  ),
  'Out for Delivery': (
    <>
      <path d="M12 21s-7-6.2-7-11a7 7 0 0114 0c0 4.8-7 11-7 11z" />
      <circle cx="12" cy="10" r="2.5" />
    </>
  ),
  Delivered: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M8 12l3 3 5-6" />
    </>
  ),
};

function EventIcon({ status }: { status: string }) {
  const shape = EVENT_ICON_SHAPES[status];
  return shape ? (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      {shape}
    </svg>
  ) : (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor">
      <circle cx="12" cy="12" r="4" />
    </svg>
  );
}

function EventTime({ event }: { event: PublicEvent }) {
  const { i18n } = useTranslation('public');
  return (
    <time dateTime={event.timestamp ?? undefined}>
      {event.timestamp ? longDateTime(event.timestamp, event.timeZone, i18n.language) : '—'}
    </time>
  );
}

function LatestEvent({ event }: { event: PublicEvent | null | undefined }) {
  const { t } = useTranslation('public');
  const statusWords = useStatusWords();
  if (!event) return <>{t('result.noEvents')}</>;
  return (
    <>
      <span className="font-semibold">{statusWords(event)}</span>
      {event.location ? ` · ${event.location}` : ''}
      <span className="block text-sm text-gray-700">
        <EventTime event={event} />
      </span>
    </>
  );
}

const STEP_STATE: Record<ProgressStep['state'], string> = {
  done: 'result.stepDone',
  current: 'result.stepNow',
  upcoming: 'result.stepNext',
};

/** The journey as steps: the current one marked for assistive technology and in words. */
function ProgressSteps({ steps }: { steps: ProgressStep[] }) {
  const { t } = useTranslation('public');
  return (
    <ol aria-label={t('result.progress')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {steps.map((step) => (
        <li
          key={step.label}
          aria-current={step.state === 'current' ? 'step' : undefined}
          className={
            step.state === 'current'
              ? 'font-bold text-gray-900 underline decoration-2 underline-offset-4'
              : step.state === 'done'
                ? 'text-gray-800'
                : 'text-gray-600'
          }
        >
          <span className="sr-only">{t(STEP_STATE[step.state])}</span>
          <span aria-hidden="true">
            {step.state === 'done' ? '✓ ' : step.state === 'current' ? '● ' : '○ '}
          </span>
          {step.label}
        </li>
      ))}
    </ol>
  );
}

/** After a failed attempt: what happened, in words, when the next attempt is, and what to do. */
function FailedAttempt({ attempt }: { attempt: NonNullable<TrackingGlance['attempt']> }) {
  const { t } = useTranslation('public');
  return (
    <div className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-red-900" data-attempt>
      <p>
        <span className="font-semibold">{t('result.whatHappened')}</span>
        {attempt.reason}
        {attempt.at ? ` (${attempt.at})` : ''}.
      </p>
      <p className="mt-1">
        <span className="font-semibold">{t('result.nextAttempt')}</span>
        {attempt.next ?? t('result.inTouch')}
      </p>
      <a href="#manage" className="btn-primary mt-3 inline-flex min-h-11 items-center">
        {t('result.choices')}
      </a>
    </div>
  );
}

export function TrackingResult({ result, glance }: { result: Result; glance: TrackingGlance }) {
  const { parcel, events } = result;
  const { t } = useTranslation('public');
  const statusWords = useStatusWords();
  return (
    <article aria-labelledby="result-heading" className="card overflow-hidden">
      <header className="border-b border-gray-200 bg-gray-50 p-4 sm:p-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="result-heading" className="font-mono text-lg font-bold tracking-wide">
            {parcel.trackingNumber}
          </h2>
          <p className="flex items-center gap-2">
            <span className="sr-only">{t('result.status')}</span>
            <PublicStatusBadge status={parcel.status} />
          </p>
        </div>
        <p className="mt-2 text-xl font-bold leading-snug text-gray-900 sm:text-2xl" data-headline>
          {glance.headline}
        </p>
        {glance.onItsWay ? (
          <p className="mt-1 font-semibold text-brand-700" data-eta>
            {glance.onItsWay}
          </p>
        ) : null}
        {glance.attempt ? <FailedAttempt attempt={glance.attempt} /> : null}
      </header>
      <dl className="grid gap-3 p-4 sm:grid-cols-2 sm:p-5">
        <div>
          <dt className="text-sm font-medium text-gray-600">{t('result.latestEvent')}</dt>
          <dd className="mt-0.5 text-gray-900">
            <LatestEvent event={events[0]} />
          </dd>
        </div>
        {glance.delivered ? (
          <div>
            <dt className="text-sm font-medium text-gray-600">{t('result.delivered')}</dt>
            <dd className="mt-0.5 font-semibold text-gray-900">{glance.delivered}</dd>
            {glance.receivedBy ? (
              <dd className="text-sm text-gray-700">
                {t('result.receivedBy', { name: glance.receivedBy })}
              </dd>
            ) : null}
          </div>
        ) : glance.expected ? (
          <div>
            <dt className="text-sm font-medium text-gray-600">{t('result.expected')}</dt>
            <dd className="mt-0.5 font-semibold text-gray-900">
              {glance.window
                ? t('result.expectedWindow', { day: glance.expected, window: glance.window })
                : glance.expected}
            </dd>
          </div>
        ) : null}
      </dl>
      {glance.lastUpdated ? (
        <p className="px-4 pb-3 text-sm text-gray-600 sm:px-5">
          {t('result.lastUpdated', { time: glance.lastUpdated })}
        </p>
      ) : null}
      <div className="border-t border-gray-200 p-4 sm:p-5">
        <ProgressSteps steps={glance.steps} />
      </div>
      <dl className="grid gap-5 border-t border-gray-200 p-4 sm:grid-cols-3 sm:p-5">
        <div>
          <dt className="text-sm font-medium text-gray-600">{t('result.recipient')}</dt>
          <dd className="mt-1 font-semibold">{parcel.recipient.name || '—'}</dd>
          <dd className="text-sm text-gray-700">{parcel.recipient.address || '—'}</dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-gray-600">{t('result.shippedFrom')}</dt>
          <dd className="mt-1 text-sm text-gray-700">{parcel.sender.address || '—'}</dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-gray-600">{t('result.service')}</dt>
          <dd className="mt-1 font-semibold">
            {t(`service.${parcel.serviceType}`, { defaultValue: parcel.serviceType })}
          </dd>
        </div>
      </dl>
      <section aria-labelledby="history-heading" className="border-t border-gray-200 p-5">
        <h3 id="history-heading" className="text-lg font-semibold">
          {t('result.history')}
        </h3>
        {events.length === 0 ? (
          <p className="mt-3 text-gray-600">{t('result.noHistory')}</p>
        ) : (
          <ol className="mt-4 space-y-0">
            {events.map((event, index) => (
              <li key={event.id} className="relative flex gap-4 pb-6 last:pb-0">
                {index < events.length - 1 ? (
                  <span
                    aria-hidden="true"
                    className="absolute start-[19px] top-10 h-[calc(100%-2.5rem)] w-0.5 bg-gray-200"
                  />
                ) : null}
                <span
                  className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-full ${
                    index === 0 ? 'bg-brand-600 text-white' : 'bg-gray-100 text-gray-600'
                  }`}
                >
                  <EventIcon status={event.status} />
                </span>
                <div className="min-w-0">
                  <p className="font-semibold">
                    {statusWords(event)}
                    {index === 0 ? (
                      <span className="ms-2 text-xs font-medium text-brand-700">
                        {t('result.latest')}
                      </span>
                    ) : null}
                  </p>
                  {event.description ? (
                    <p className="text-sm text-gray-700">{event.description}</p>
                  ) : null}
                  <p className="text-sm text-gray-600">
                    {event.location ? `${event.location} · ` : ''}
                    <EventTime event={event} />
                  </p>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
    </article>
  );
}

function trackHref(trackingNumber: string, search: string) {
  return keepLanguage(`/track?number=${encodeURIComponent(trackingNumber)}`, search);
}

/** Several numbers at once: a row per number, each found one linking to its full result. */
export function TrackingSummaryList({ summaries }: { summaries: TrackingSummary[] }) {
  const found = summaries.filter((s) => s.found).length;
  const { t } = useTranslation('public');
  const { message } = usePublicMessages();
  const { search } = useLocation();
  return (
    <section aria-labelledby="summaries-heading" className="card overflow-hidden">
      <header className="border-b border-gray-200 bg-gray-50 p-5">
        <h2 id="summaries-heading" className="text-xl font-bold">
          {t('track.severalTitle', { count: summaries.length })}
        </h2>
        <p className="mt-1 text-sm text-gray-600">
          {t('result.found', { found, total: summaries.length })}
        </p>
      </header>
      <ul className="divide-y divide-gray-200" data-tracking-summaries>
        {summaries.map((summary) => (
          <li key={summary.trackingNumber} className="p-5" data-tracking-summary>
            {summary.found ? (
              <>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="break-all font-mono text-lg font-bold tracking-wide">
                    <a
                      href={trackHref(summary.trackingNumber, search)}
                      className="text-brand-700 underline hover:text-brand-800"
                    >
                      {summary.trackingNumber}
                    </a>
                  </h3>
                  <PublicStatusBadge status={summary.status} />
                </div>
                <p className="mt-2 font-semibold text-gray-900" data-headline>
                  {summary.headline}
                </p>
                <dl className="mt-2 text-sm">
                  <dt className="font-medium text-gray-600">{t('result.latestEvent')}</dt>
                  <dd className="mt-0.5 text-gray-900">
                    <LatestEvent event={summary.latestEvent} />
                  </dd>
                </dl>
              </>
            ) : (
              <>
                <h3 className="break-all font-mono text-lg font-bold tracking-wide text-gray-900">
                  {summary.trackingNumber}
                </h3>
                <p className="mt-1 text-sm font-medium text-red-800">{message(summary.error)}</p>
                {summary.hint ? <p className="mt-1 text-sm text-gray-700">{summary.hint}</p> : null}
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
