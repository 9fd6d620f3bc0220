import type { Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { pageTitle } from '~/components/public/page-meta';
import {
  TrackingResult,
  TrackingSummaryList,
  type TrackingSummary,
} from '~/components/tracking-public/tracking-result';
import { SubscribeForm } from '~/components/tracking-public/subscribe-form';
import { ManageDeliveryForm } from '~/components/tracking-public/manage-delivery-form';
import { ParcelDeliveryMarkup } from '~/components/tracking-public/parcel-delivery-markup';
import { deliveryPreferencesSchema, ProofAccessSchema } from '~/schemas/delivery-preferences';
import { ProofOfDeliverySection } from '~/components/tracking-public/proof-of-delivery-section';
import {
  isProofAccess,
  openProofOfDelivery,
  PROOF_NEEDS_LINK,
  type PublicProof,
} from '~/services/public-proof.server';
import { grantRecipientAccess, openedParcels } from '~/http/recipient-access.server';
import type { SerializedDeliveryPreferences } from '~/models/parcel.server';
import {
  dayLabel,
  PREFERENCES_CLOSED,
  requestableDays,
  updateDeliveryPreferences,
  WRONG_POSTCODE,
  type PostcodeCheck,
} from '~/services/delivery-preferences.server';
import {
  requestParcelSubscription,
  SUBSCRIBE_ANSWER,
  subscribeClientLimiter,
} from '~/services/parcel-subscriptions.server';
import type { PublicTrackingResult } from '~/models/parcel-tracking-numbers.server';
import {
  MAX_TRACKING_NUMBERS,
  normalizeTrackingNumber,
  TRACKING_NUMBER_FORMAT_MESSAGE,
} from '~/schemas/constants';
import { HONEYPOT_FIELD, ParcelSubscribeSchema } from '~/schemas/public-forms';
import { TrackingQuerySchema } from '~/schemas/public-tracking';
import { readFormData } from '~/lib/form.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import { PRIVATE_REVALIDATE } from '~/lib/http-cache.server';
import {
  TRACKING_NOT_FOUND,
  trackNumbers,
  type TrackingGlance,
  trackingLimiter,
} from '~/services/public-tracking.server';
import { clientAddress } from '~/lib/rate-limit.server';
import { formLanguage, requestLanguage, translator } from '~/lib/i18n.server';
import type { Language } from '~/schemas/languages';
import { keepLanguage, metaText } from '~/utils/page-language';
import { Trans, useTranslation } from 'react-i18next';
import { usePublicMessages } from '~/components/public/public-messages';
import { useLocation } from '@remix-run/react';

const FAILED = 'Failed to track package. Please try again.';

type TrackPageData = {
  /** A result's page speaks its recipient's language (unless the visitor chose one). */
  language?: Language;
  /** What the field shows: what was asked for, on one line. */
  number: string;
  error: string | null;
  /** After "Tracking number not found" for a number that fails its check digit: what to check. */
  hint: string | null;
  /** One number: its full result, and what it comes to at a glance. */
  result: PublicTrackingResult | null;
  glance: TrackingGlance | null;
  /** Several numbers: one summary each. */
  summaries: TrackingSummary[] | null;
  /** After the subscribe form was taken: what the visitor is told. */
  subscribed: string | null;
  /** The days another delivery may be asked for, and whether preferences were just saved. */
  days: Array<{ value: string; label: string }>;
  preferencesSaved: boolean;
  /** What the recipient asked for, once this browser opened the parcel with the postcode. */
  savedPreferences: SerializedDeliveryPreferences | null;
  /** The signed value of the recipient's proof link, when the page was opened through it. */
  proofAccess: string | null;
  /** Each parcel found, as schema.org ParcelDelivery data. */
  deliveries: unknown[];
};

/** The page with nothing looked up yet. */
const EMPTY_PAGE: TrackPageData = {
  number: '',
  error: null,
  hint: null,
  result: null,
  glance: null,
  summaries: null,
  subscribed: null,
  days: [],
  preferencesSaved: false,
  savedPreferences: null,
  proofAccess: null,
  deliveries: [],
};

/** "Please check the digits of SWX 12345678 9: …", in the page's language. */
function mistypedHint(t: (key: string, values: Record<string, string>) => string, number: string) {
  const digits = number.slice(3);
  return t('track.mistyped', {
    letters: number.slice(0, 3),
    digits: digits.slice(0, 8),
    check: digits.slice(8),
  });
}

function page(data: Partial<TrackPageData>, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  // Results change as parcels move: the browser keeps them but asks each time (304 if unchanged).
  headers.set('Cache-Control', PRIVATE_REVALIDATE);
  return json<TrackPageData>({ ...EMPTY_PAGE, ...data }, { ...init, headers });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The page differs for a browser that opened the parcel with its postcode, and by language.
  const vary = { Vary: 'Cookie, Accept-Language' };
  const url = new URL(request.url);
  const language = await requestLanguage(request);
  const t = translator(language, 'public');
  const values = url.searchParams.getAll('number');
  if (!values.length) return json<TrackPageData>(EMPTY_PAGE);
  // The field is one line: numbers given on several lines show separated by commas.
  const number = values
    .join(', ')
    .trim()
    .replace(/\s*[\r\n]+\s*/g, ', ');

  const parsed = TrackingQuerySchema.safeParse(values);
  if (!parsed.success) {
    return page({ number, error: parsed.error.issues[0]!.message }, { status: 400 });
  }
  const numbers = parsed.data;

  const limit = await trackingLimiter.hit(clientAddress(context), numbers.length);
  if (!limit.allowed) {
    return page(
      {
        number,
        error: t('errors.tooManyLookups', { seconds: limit.retryAfterSeconds }),
      },
      { status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
    );
  }
  try {
    const lookups = await trackNumbers(numbers, {
      opened: await openedParcels(request),
      // One parcel speaks its recipient's language unless the visitor asked for another; a list
      // of them, the visitor's.
      languageFor: (recipient) =>
        numbers.length === 1 ? requestLanguage(request, { recipient }) : language,
    });
    if (lookups.length === 1) {
      const [lookup] = lookups;
      if (lookup!.kind === 'malformed')
        return page({ number, error: TRACKING_NUMBER_FORMAT_MESSAGE }, { status: 400 });
      if (lookup!.kind === 'not-found')
        return page(
          {
            number,
            error: TRACKING_NOT_FOUND,
            hint: lookup!.mistyped ? mistypedHint(t, lookup!.trackingNumber) : null,
          },
          { status: 404 },
        );
      const { result, glance, delivery, savedPreferences } = lookup!;
      const subscribed = url.searchParams.get('subscribe') === 'sent' ? SUBSCRIBE_ANSWER : null;
      const spoken = lookup!.language;
      const days = requestableDays().map((value) => ({ value, label: dayLabel(value, spoken) }));
      const preferencesSaved = url.searchParams.get('preferences') === 'saved';
      const trackingNumber = result.parcel.trackingNumber;
      const proof = url.searchParams.get('proof');
      return page(
        {
          language: spoken,
          number,
          result,
          glance,
          subscribed,
          days,
          preferencesSaved,
          savedPreferences,
          proofAccess: isProofAccess(trackingNumber, proof) ? proof : null,
          deliveries: [delivery],
        },
        { headers: vary },
      );
    }
    const summaries = lookups.map((lookup): TrackingSummary => {
      if (lookup.kind === 'found') {
        const { result, glance } = lookup;
        return {
          trackingNumber: result.parcel.trackingNumber,
          found: true,
          status: result.parcel.status,
          headline: glance.headline,
          latestEvent: result.events[0] ?? null,
        };
      }
      return {
        trackingNumber: lookup.trackingNumber,
        found: false,
        error: lookup.kind === 'malformed' ? TRACKING_NUMBER_FORMAT_MESSAGE : TRACKING_NOT_FOUND,
        hint:
          lookup.kind === 'not-found' && lookup.mistyped
            ? mistypedHint(t, lookup.trackingNumber)
            : null,
      };
    });
    const deliveries = lookups.flatMap((lookup) =>
      lookup.kind === 'found' ? [lookup.delivery] : [],
    );
    return page({ number, summaries, deliveries });
  } catch (error) {
    console.error(error);
    return page({ number, error: FAILED }, { status: 503 });
  }
}

/**
 * The form under a result: an e-mail address for updates on that parcel (the page's own number).
 * Whatever the address, a taken request answers the same (back to the result, saying what
 * happens next); only a bad address, too many requests from this client or a parcel that cannot
 * take subscribers are said so.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const trackingNumber = new URL(request.url).searchParams.get('number') ?? '';
  const sent = `/track?${new URLSearchParams({ number: normalizeTrackingNumber(trackingNumber), subscribe: 'sent' })}#subscribe`;
  const formData = await readFormData(request);
  if (formData.get('intent') === 'proof')
    return proofAction(request, normalizeTrackingNumber(trackingNumber), formData, context);
  if (formData.get('intent') === 'preferences')
    return preferencesAction(request, normalizeTrackingNumber(trackingNumber), formData, context);
  if (formData.get(HONEYPOT_FIELD)) return redirect(sent);

  const submission = parseWithZod(formData, { schema: ParcelSubscribeSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  const limit = await subscribeClientLimiter.hit(clientAddress(context));
  if (!limit.allowed) {
    const t = translator(await requestLanguage(request), 'public');
    return invalidForm(submission, {
      formErrors: [
        t('errors.tooManySubscriptions', { minutes: Math.ceil(limit.retryAfterSeconds / 60) }),
      ],
      status: 429,
      headers: { 'Retry-After': String(limit.retryAfterSeconds) },
    });
  }
  const outcome = await requestParcelSubscription({
    trackingNumber,
    email: submission.value.email,
    language: await formLanguage(request, formData),
  });
  if (outcome === 'not-found')
    return invalidForm(submission, { formErrors: [TRACKING_NOT_FOUND], status: 404 });
  if (outcome === 'delivered')
    return invalidForm(submission, {
      formErrors: ['This parcel has been delivered: there are no more updates to send.'],
      status: 409,
    });
  return redirect(sent);
}

/** "Please wait 45 seconds", "… 12 minutes", in the visitor's language. */
async function tooManyPostcodes(request: Request, seconds: number) {
  const t = translator(await requestLanguage(request), 'public');
  return seconds < 90
    ? t('errors.tooManyPostcodes', { seconds })
    : t('errors.tooManyPostcodesMinutes', { minutes: Math.ceil(seconds / 60) });
}

/** A postcode check that did not open the parcel: said beside the field, or for the form. */
async function postcodeRefused<T>(
  request: Request,
  submission: Submission<unknown>,
  outcome: Exclude<PostcodeCheck, { kind: 'ok' }>,
  into: (reply: FormReply) => T,
) {
  switch (outcome.kind) {
    case 'wrong-postcode':
      return invalidForm(submission, {
        into,
        fieldErrors: { postalCode: [WRONG_POSTCODE] },
        status: 403,
      });
    case 'rate-limited':
      return invalidForm(submission, {
        into,
        formErrors: [await tooManyPostcodes(request, outcome.retryAfterSeconds)],
        status: 429,
        headers: { 'Retry-After': String(outcome.retryAfterSeconds) },
      });
    case 'not-found':
      return invalidForm(submission, { into, formErrors: [TRACKING_NOT_FOUND], status: 404 });
  }
}

/**
 * The proof of delivery's photos and signature: through the recipient's signed link (the
 * delivered e-mail's), behind their postcode.
 */
async function proofAction(
  request: Request,
  trackingNumber: string,
  formData: FormData,
  context: unknown,
) {
  const submission = parseWithZod(formData, { schema: ProofAccessSchema });
  const into = (reply: FormReply) => ({ proof: { reply, proofs: null } });
  if (submission.status !== 'success') return invalidForm(submission, { into });
  const outcome = await openProofOfDelivery(
    trackingNumber,
    submission.value.postalCode,
    clientAddress(context),
    submission.value.proof,
  );
  if (outcome.kind === 'shown') return json({ proof: { reply: null, proofs: outcome.proofs } });
  if (outcome.kind === 'no-link')
    return invalidForm(submission, { into, formErrors: [PROOF_NEEDS_LINK], status: 403 });
  return postcodeRefused(request, submission, outcome, into);
}

/** The recipient's delivery preferences, behind their postcode (as the public API takes them). */
async function preferencesAction(
  request: Request,
  trackingNumber: string,
  formData: FormData,
  context: unknown,
) {
  const submission = parseWithZod(formData, {
    schema: deliveryPreferencesSchema(requestableDays()),
  });
  const into = (preferences: FormReply) => ({ preferences });
  if (submission.status !== 'success') return invalidForm(submission, { into });
  const outcome = await updateDeliveryPreferences(trackingNumber, submission.value, {
    client: clientAddress(context),
    via: 'page',
    context,
    language: await formLanguage(request, formData),
  });
  if (outcome.kind === 'saved')
    return redirect(
      `/track?${new URLSearchParams({ number: trackingNumber, preferences: 'saved' })}#manage`,
      { headers: { 'Set-Cookie': await grantRecipientAccess(request, trackingNumber) } },
    );
  if (outcome.kind === 'closed')
    return invalidForm(submission, { into, formErrors: [PREFERENCES_CLOSED], status: 409 });
  return postcodeRefused(request, submission, outcome, into);
}

// The layout's policy for the empty page; a lookup's own (private, revalidated) for results.
export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  loaderHeaders.forEach((value, key) => headers.set(key, value));
  return headers;
};

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const title = data?.result
    ? `${data.result.parcel.trackingNumber}: ${metaText(`status.${data.result.parcel.status}`)}`
    : data?.summaries
      ? metaText('track.severalTitle', { count: data.summaries.length })
      : metaText('track.title');
  return [
    { title: pageTitle(matches, title) },
    { name: 'description', content: metaText('track.description') },
    // A result is one visitor's business; only the empty page belongs in search results.
    ...(data?.number ? [{ name: 'robots', content: 'noindex' }] : []),
  ];
};

/** Where a number that was not found leaves the visitor: what to check, and whom to ask. */
function NotFoundSteps({ hint }: { hint: string | null }) {
  const { t } = useTranslation('public');
  const { search } = useLocation();
  return (
    <div className="mt-2 text-gray-800">
      <p>{t('track.tryNext')}</p>
      <ul className="mt-1 list-disc space-y-1 ps-5">
        <li>{hint ?? t('track.checkDigits')}</li>
        <li>{t('track.notScannedYet')}</li>
        <li>
          <Trans
            t={t}
            i18nKey="track.stillNotFound"
            components={[
              <a
                key="contact"
                href={keepLanguage('/contact', search)}
                className="font-semibold text-brand-700 underline"
              />,
            ]}
          />
        </li>
      </ul>
    </div>
  );
}

function TrackForm({
  number,
  error,
  className,
}: {
  number: string;
  error: string | null;
  className: string;
}) {
  const { t } = useTranslation('public');
  const { search } = useLocation();
  const language = new URLSearchParams(search).get('lang');
  return (
    <form
      method="get"
      action="/track"
      className={className}
      role="search"
      aria-label={t('track.searchLabel')}
    >
      {language ? <input type="hidden" name="lang" value={language} /> : null}
      <label htmlFor="tracking-number" className="sr-only">
        {t('track.numberLabel')}
      </label>
      <input
        id="tracking-number"
        name="number"
        type="text"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={MAX_TRACKING_NUMBERS * 20}
        defaultValue={number}
        placeholder={t('track.placeholder')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'tracking-error tracking-hint' : 'tracking-hint'}
        className="field-input min-w-0 flex-1 py-3 text-base"
      />
      <button type="submit" className="btn-primary px-5 py-3 text-base">
        {t('track.submit')}
      </button>
    </form>
  );
}

export default function TrackPage() {
  const data = useLoaderData<typeof loader>() as TrackPageData;
  const { t } = useTranslation('public');
  const { message } = usePublicMessages();
  const actionData = useActionData<typeof action>() as
    | FormReply
    | { preferences: FormReply }
    | { proof: { reply: FormReply | null; proofs: PublicProof[] | null } }
    | undefined;
  const proofData = actionData && 'proof' in actionData ? actionData.proof : undefined;
  const preferencesResult =
    actionData && 'preferences' in actionData ? actionData.preferences : undefined;
  const subscribeResult =
    actionData && !('preferences' in actionData) && !('proof' in actionData)
      ? (actionData as FormReply)
      : undefined;
  const { error } = data;
  // With one result, the result comes first so that a phone shows it without scrolling; the box
  // for another number follows it. After a failed attempt, the recipient's choices come next.
  const single = !!(data.result && data.glance);
  const status = data.result?.parcel.status;
  const failed = status === 'Failed';
  const manage =
    data.result && status !== 'Delivered' && status !== 'Returned' ? (
      <ManageDeliveryForm
        trackingNumber={data.result.parcel.trackingNumber}
        days={data.days}
        justSaved={data.preferencesSaved}
        saved={data.savedPreferences}
        open={failed}
        lastResult={preferencesResult}
      />
    ) : null;
  return (
    <div className="mx-auto max-w-4xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold sm:text-3xl">{t('track.title')}</h1>
      <p id="tracking-hint" className={`mt-2 text-gray-600 ${single ? 'sr-only' : ''}`}>
        {t('track.hint', { max: MAX_TRACKING_NUMBERS })}
      </p>
      {single ? null : (
        <TrackForm number={data.number} error={error} className="mt-4 flex gap-2 sm:mt-6" />
      )}
      <div className="mt-4 sm:mt-6">
        {error ? (
          <div
            id="tracking-error"
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-4 text-red-800"
          >
            <p className="font-semibold">{message(error)}</p>
            {error === TRACKING_NOT_FOUND ? <NotFoundSteps hint={data.hint} /> : null}
          </div>
        ) : null}
        {data.result && data.glance ? (
          <TrackingResult result={data.result} glance={data.glance} />
        ) : null}
        {manage && failed ? manage : null}
        {single ? (
          <section aria-labelledby="track-another-heading" className="card mt-6 p-5">
            <h2 id="track-another-heading" className="text-lg font-semibold">
              {t('track.another')}
            </h2>
            <TrackForm number={data.number} error={error} className="mt-3 flex gap-2" />
          </section>
        ) : null}
        {data.result && data.result.parcel.status === 'Delivered' ? (
          <ProofOfDeliverySection
            trackingNumber={data.result.parcel.trackingNumber}
            access={data.proofAccess}
            proofs={proofData?.proofs ?? null}
            lastResult={proofData?.reply}
          />
        ) : null}
        {manage && !failed ? manage : null}
        {data.result && data.result.parcel.status !== 'Delivered' ? (
          <SubscribeForm
            trackingNumber={data.result.parcel.trackingNumber}
            sent={subscribeResult ? null : data.subscribed}
            lastResult={subscribeResult}
          />
        ) : null}
        {data.summaries ? <TrackingSummaryList summaries={data.summaries} /> : null}
      </div>
      <ParcelDeliveryMarkup deliveries={data.deliveries} />
    </div>
  );
}
