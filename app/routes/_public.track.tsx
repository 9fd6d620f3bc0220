import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageTitle } from '~/components/public/page-meta';
import { TrackingResult } from '~/components/tracking-public/tracking-result';
import { TRACKING_NUMBER_FORMAT_MESSAGE, TRACKING_NUMBER_PLACEHOLDER } from '~/schemas/constants';
import { lookupTrackingNumber, trackingLimiter } from '~/services/public-tracking.server';
import { clientAddress } from '~/services/rate-limit.server';

const EMPTY = 'Please enter a tracking number';
const NOT_FOUND = 'Tracking number not found';
const FAILED = 'Failed to track package. Please try again.';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get('number');
  if (raw === null) return json({ number: '', result: null, error: null });
  const number = raw.trim();
  if (!number) return json({ number: '', result: null, error: EMPTY }, { status: 400 });

  const limit = await trackingLimiter.hit(clientAddress(context));
  if (!limit.allowed) {
    return json(
      {
        number,
        result: null,
        error: `Too many tracking requests from your network. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
      },
      { status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
    );
  }
  try {
    const lookup = await lookupTrackingNumber(number);
    if (lookup.kind === 'malformed')
      return json({ number, result: null, error: TRACKING_NUMBER_FORMAT_MESSAGE }, { status: 400 });
    if (lookup.kind === 'not-found')
      return json({ number, result: null, error: NOT_FOUND }, { status: 404 });
    return json({ number, result: lookup.result, error: null });
  } catch (error) {
    console.error(error);
    return json({ number, result: null, error: FAILED }, { status: 503 });
  }
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: pageTitle(
      matches,
      data?.result
        ? `${data.result.parcel.trackingNumber}: ${data.result.parcel.status}`
        : 'Track Package',
    ),
  },
  {
    name: 'description',
    content:
      'Track your parcel with its tracking number: the status, every scan and the estimated delivery date.',
  },
  // A result is one visitor's business; only the empty page belongs in search results.
  ...(data?.number ? [{ name: 'robots', content: 'noindex' }] : []),
];

export default function TrackPage() {
  const data = useLoaderData<typeof loader>();
  const { error } = data;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold">Track Package</h1>
      <p id="tracking-hint" className="mt-2 text-gray-600">
        Enter your tracking number to see where your parcel is right now.
      </p>
      <form
        method="get"
        action="/track"
        className="mt-6 flex flex-col gap-3 sm:flex-row"
        role="search"
        aria-label="Track parcels"
      >
        <label htmlFor="tracking-number" className="sr-only">
          Tracking number
        </label>
        <input
          id="tracking-number"
          name="number"
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          defaultValue={data.number}
          placeholder={`Enter tracking number (${TRACKING_NUMBER_PLACEHOLDER})`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'tracking-error tracking-hint' : 'tracking-hint'}
          className="field-input min-w-0 flex-1 py-3 text-base"
        />
        <button type="submit" className="btn-primary px-6 py-3 text-base">
          Track
        </button>
      </form>
      <div className="mt-6">
        {error ? (
          <p
            id="tracking-error"
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-4 text-red-800"
          >
            {error}
          </p>
        ) : null}
        {data.result ? <TrackingResult result={data.result} /> : null}
      </div>
    </div>
  );
}
