import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { TrackingResult } from '~/components/tracking-public/tracking-result';
import { Spinner } from '~/components/ui/spinner';
import { TRACKING_NUMBER_PLACEHOLDER } from '~/schemas/constants';
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
    if (lookup.kind !== 'found')
      return json({ number, result: null, error: NOT_FOUND }, { status: 404 });
    return json({ number, result: lookup.result, error: null });
  } catch (error) {
    console.error(error);
    return json({ number, result: null, error: FAILED }, { status: 503 });
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data?.result
      ? `${data.result.parcel.trackingNumber}: ${data.result.parcel.status}`
      : 'Track Package',
  },
  { name: 'robots', content: 'noindex' },
];

export default function TrackPage() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [clientError, setClientError] = useState<string | null>(null);
  const loading = navigation.state !== 'idle' && navigation.location?.pathname === '/track';

  useEffect(() => {
    setClientError(null);
  }, [data]);

  const error = clientError ?? data.error;

  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold">Track Package</h1>
      <p className="mt-2 text-gray-600">
        Enter your tracking number to see where your parcel is right now.
      </p>
      <Form
        method="get"
        action="/track"
        className="mt-6 flex flex-col gap-3 sm:flex-row"
        role="search"
        onSubmit={(event) => {
          // Read the field itself: a visitor on a slow phone may have typed before hydration.
          const input = event.currentTarget.elements.namedItem('number') as HTMLInputElement | null;
          const trimmed = input?.value.trim() ?? '';
          if (!trimmed) {
            event.preventDefault();
            setClientError(EMPTY);
            return;
          }
          setClientError(null);
          if (input) input.value = trimmed;
        }}
      >
        <label htmlFor="tracking-number" className="sr-only">
          Tracking number
        </label>
        <input
          id="tracking-number"
          name="number"
          type="text"
          inputMode="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          key={data.number}
          defaultValue={data.number}
          placeholder={`Enter tracking number (${TRACKING_NUMBER_PLACEHOLDER})`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'tracking-error' : undefined}
          className="field-input flex-1 py-3 text-base"
        />
        <button type="submit" className="btn-primary px-6 py-3 text-base" disabled={loading}>
          {loading ? <Spinner /> : null}
          {loading ? 'Tracking...' : 'Track'}
        </button>
      </Form>
      <div className="mt-6" aria-live="polite">
        {error ? (
          <p
            id="tracking-error"
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-4 text-red-700"
          >
            {error}
          </p>
        ) : null}
        {data.result && !clientError ? <TrackingResult result={data.result} /> : null}
      </div>
    </div>
  );
}
