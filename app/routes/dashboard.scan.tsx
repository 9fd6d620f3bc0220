import type { MetaFunction } from '@remix-run/node';
import { Link, useActionData, useFetcher, useLoaderData, useLocation } from '@remix-run/react';
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FailedReasons } from '~/components/scan/failed-reasons';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { Field, FormErrors, SelectField } from '~/components/ui/field';
import {
  FAILED_DELIVERY,
  FAILURE_REASON_CODES,
  failureReasonLabel,
  SCAN_STATUSES,
} from '~/schemas/event-statuses';
import { TRACKING_NOT_FOUND, TRACKING_NUMBER_PLACEHOLDER } from '~/schemas/tracking-number';
import { scanStationAction, scanStationLoader, type ScanView } from '~/http/scan-station.server';
import { useHydrated } from '~/utils/use-hydrated';
import { scanBody, useOutbox } from '~/utils/outbox';

// Both render nothing until the page runs its scripts (the camera where the browser reads
// barcodes, the outbox once it can keep scans): their code comes after, off the first load.
const CameraScan = lazy(() =>
  import('~/components/scan/camera-scan').then((m) => ({ default: m.CameraScan })),
);
const OutboxStatus = lazy(() =>
  import('~/components/scan/outbox-status').then((m) => ({ default: m.OutboxStatus })),
);

/**
 * The scan station: staff and couriers choose the status and the depot (or place) once, kept in
 * the URL, then scan or type numbers one after another. A scanner types the number and Enter, so
 * each scan is a plain form post answered with this page; with JavaScript the answer comes
 * without leaving the page, the field keeps focus and this session's scans can be undone. The
 * answer for a parcel out for delivery is the doorstep: Delivered (its proof form, the stop
 * chosen) or a failed attempt's reason, one tap each. A scan the rules refuse says why, and one
 * that contradicts the delivery asks before it is recorded. Couriers land here. With JavaScript,
 * a scan made offline (or while others wait) is kept on the phone and sent, in order, once the
 * connection is back (useOutbox).
 */
export { scanStationAction as action, scanStationLoader as loader };

export const meta: MetaFunction = () => [{ title: 'Scan · Management dashboard' }];

type ActionData =
  Awaited<ReturnType<typeof scanStationAction>> extends infer R
    ? R extends { json(): Promise<infer D> }
      ? D
      : never
    : never;

export default function ScanStation() {
  const { setup, depot, depots, deliveredByScan } = useLoaderData<typeof scanStationLoader>();
  const actionData = useActionData<typeof scanStationAction>() as ActionData | undefined;
  const { search } = useLocation();
  const scanFetcher = useFetcher<typeof scanStationAction>({ key: 'scan' });
  const undoFetcher = useFetcher<typeof scanStationAction>({ key: 'scan-undo' });
  const input = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const [session, setSession] = useState<ScanView[]>([]);
  const [undone, setUndone] = useState<string[]>([]);
  const outbox = useOutbox();

  const latest = (scanFetcher.data ?? actionData) as ActionData | undefined;
  const scanData = latest?.intent === 'scan' ? latest : undefined;
  // The server's answer to a refused scan: a message per field, as conform's reply has them.
  const errors: Record<string, string[] | null | undefined> =
    (scanFetcher.state === 'idle' && scanData?.result.error) || {};
  const numberErrors = errors.trackingNumber;
  const otherErrors = Object.entries(errors)
    .filter(([name]) => name !== 'trackingNumber')
    .flatMap(([, messages]) => messages ?? []);

  // Each answer joins this session's list; the field empties and keeps focus for the next.
  const seen = useRef<unknown>(null);
  useEffect(() => {
    if (scanFetcher.state !== 'idle' || !scanFetcher.data || seen.current === scanFetcher.data)
      return;
    seen.current = scanFetcher.data;
    const data = scanFetcher.data as ActionData;
    if (data.intent === 'scan' && data.scan) {
      const scan = data.scan;
      setSession((list) => [scan, ...list]);
      if (input.current) input.current.value = '';
      // A receiver's name is for one delivery only.
      const receiver = form.current?.elements.namedItem('receivedBy');
      if (receiver instanceof HTMLInputElement && scan.outcome === 'recorded') receiver.value = '';
    }
    input.current?.focus();
  }, [scanFetcher.state, scanFetcher.data]);
  useEffect(() => {
    const data = undoFetcher.data as ActionData | undefined;
    if (data?.intent === 'undo' && data.undone) {
      const id = data.undone;
      setUndone((list) => (list.includes(id) ? list : [...list, id]));
    }
    input.current?.focus();
  }, [undoFetcher.data]);

  const undoData = (undoFetcher.data ?? actionData) as ActionData | undefined;
  const undoAnswer = undoData?.intent === 'undo' ? undoData : undefined;
  const ready = !!setup.status && (!!depot || !!setup.location);
  const place = depot?.name ?? setup.location ?? '';
  const failed = setup.status === FAILED_DELIVERY;
  const delivering = setup.status === 'Delivered';
  const busy = scanFetcher.state !== 'idle';
  const action = `/dashboard/scan${search}`;
  // Where the station records: the form's hidden fields for the depot or the typed place.
  const placeFields = depot ? (
    <input type="hidden" name="depotId" value={depot.id} />
  ) : setup.location ? (
    <input type="hidden" name="location" value={setup.location} />
  ) : null;
  const current = scanData?.scan ?? null;
  const hydrated = useHydrated();

  // Offline, or while earlier scans wait: this one waits too, for the API with its own key.
  const keepScan = (scanForm: HTMLFormElement, submitter?: HTMLElement | null) => {
    const json = scanBody(scanForm, submitter);
    const trackingNumber = String(json.trackingNumber ?? '').toUpperCase();
    if (trackingNumber)
      void outbox.keep({
        url: '/api/scans',
        body: { json },
        trackingNumber,
        what: `${json.status}`,
      });
    if (input.current && scanForm === form.current) input.current.value = '';
    input.current?.focus();
  };
  const queueIfWaiting = (event: FormEvent<HTMLFormElement>) => {
    if (!outbox.shouldQueue()) return;
    event.preventDefault();
    keepScan(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
  };

  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">Scan</h1>

      <details open={!ready} className="card p-4">
        <summary className="cursor-pointer py-2.5 font-semibold">
          {ready ? `${setup.status} · ${place}` : 'Choose what to record'}
        </summary>
        <form method="get" action="/dashboard/scan" className="mt-3 space-y-3">
          <SelectField
            label="Status"
            id="scan-status"
            name="status"
            defaultValue={setup.status ?? ''}
            options={SCAN_STATUSES}
          >
            <option value="">Choose a status</option>
          </SelectField>
          <SelectField
            label="Depot"
            id="scan-depot"
            name="depot"
            defaultValue={depot?.id ?? ''}
            options={depots.map((d) => ({ value: d.id, label: d.name }))}
          >
            <option value="">None (enter the location)</option>
          </SelectField>
          <Field
            label="Location (without a depot)"
            name="location"
            defaultValue={setup.location ?? ''}
            placeholder="e.g. 12 Harbour Rd"
          />
          <fieldset className="space-y-3 rounded-md border border-gray-200 p-3">
            <legend className="px-1 text-sm font-medium text-gray-700">
              Only for {FAILED_DELIVERY}
            </legend>
            <SelectField label="Reason" name="reason" defaultValue={setup.reason ?? ''}>
              <option value="">Choose a reason</option>
              {FAILURE_REASON_CODES.map((code) => (
                <option key={code} value={code}>
                  {failureReasonLabel(code)}
                </option>
              ))}
            </SelectField>
            <Field label="Note (required for Other)" name="note" defaultValue={setup.note ?? ''} />
            <Field
              label="Next attempt (optional)"
              type="date"
              name="nextAttemptDate"
              defaultValue={setup.nextAttemptDate ?? ''}
            />
          </fieldset>
          <button type="submit" className="btn-primary min-h-11 w-full">
            Use these settings
          </button>
        </form>
      </details>

      {ready ? (
        <section aria-labelledby="scan-heading" className="card space-y-3 p-4">
          <h2 id="scan-heading" className="sr-only">
            Scan a parcel
          </h2>
          <scanFetcher.Form
            method="post"
            action={action}
            ref={form}
            id="scan"
            className="space-y-3"
            onSubmit={queueIfWaiting}
          >
            <input type="hidden" name="status" value={setup.status ?? ''} />
            {placeFields}
            {failed && setup.reason ? (
              <input type="hidden" name="reason" value={setup.reason} />
            ) : null}
            {failed && setup.note ? <input type="hidden" name="note" value={setup.note} /> : null}
            {failed && setup.nextAttemptDate ? (
              <input type="hidden" name="nextAttemptDate" value={setup.nextAttemptDate} />
            ) : null}
            <FormErrors id="scan-errors" errors={otherErrors} />
            {delivering && deliveredByScan ? (
              <Field
                label="Received by"
                id="scan-received-by"
                name="receivedBy"
                autoComplete="off"
                hint="Who took the parcel: each scan records the proof of delivery of its next stop."
                errors={errors.receivedBy}
              />
            ) : delivering ? (
              <p className="text-sm text-gray-700">
                Each scan opens the proof of delivery of the parcel’s next stop.
              </p>
            ) : null}
            <label htmlFor="scan-number" className="field-label">
              Tracking number
            </label>
            <input
              ref={input}
              id="scan-number"
              name="trackingNumber"
              type="text"
              inputMode="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              // The page exists to take the next number.
              autoFocus
              placeholder={TRACKING_NUMBER_PLACEHOLDER}
              aria-invalid={numberErrors ? true : undefined}
              aria-describedby={numberErrors ? 'scan-number-error' : undefined}
              className="field-input py-3 font-mono text-lg"
            />
            {numberErrors?.length ? (
              <p id="scan-number-error" className="field-error">
                {numberErrors[0]}
              </p>
            ) : null}
            <button type="submit" className="btn-primary min-h-11 w-full" disabled={busy}>
              {busy ? 'Recording...' : `Record ${setup.status}`}
            </button>
          </scanFetcher.Form>
          {hydrated ? (
            <p className="text-sm text-gray-600">
              Each scan of this session is listed below, with Undo.
            </p>
          ) : null}
          {hydrated ? (
            <Suspense fallback={null}>
              <CameraScan
                onCode={(code) => {
                  if (!input.current || !form.current) return;
                  input.current.value = code;
                  if (outbox.shouldQueue()) keepScan(form.current);
                  else scanFetcher.submit(form.current);
                }}
              />
            </Suspense>
          ) : null}
        </section>
      ) : null}

      {hydrated ? (
        <Suspense fallback={null}>
          <OutboxStatus waiting={outbox.waiting} sent={outbox.sent} ready={outbox.ready} />
        </Suspense>
      ) : null}

      <div role="status" aria-live="polite">
        {current ? (
          <ScanAnswer
            scan={current}
            undone={undone}
            undoForm={(eventId) => (
              <undoFetcher.Form method="post" className="mt-2">
                <input type="hidden" name="intent" value="undo" />
                <input type="hidden" name="eventId" value={eventId} />
                <button type="submit" className="btn-secondary min-h-11">
                  Undo this scan
                </button>
              </undoFetcher.Form>
            )}
            scanForm={(children, className) => (
              <scanFetcher.Form
                method="post"
                action={action}
                className={className}
                onSubmit={queueIfWaiting}
              >
                {placeFields}
                {children}
              </scanFetcher.Form>
            )}
          />
        ) : null}
        {undoAnswer?.error ? <p className="mt-2 text-sm text-red-700">{undoAnswer.error}</p> : null}
        {undoAnswer?.undone && !undoAnswer.error && !current ? (
          <p className="rounded-md border border-gray-200 bg-gray-50 p-4">Scan undone.</p>
        ) : null}
      </div>

      {session.length > 0 ? (
        <section aria-labelledby="session-heading" className="card p-4">
          <h2 id="session-heading" className="mb-2 font-semibold">
            This session’s scans
          </h2>
          <ul className="divide-y divide-gray-100">
            {session.map((scan, i) => (
              <li key={`${scan.eventId ?? scan.trackingNumber}-${i}`} className="py-2 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-mono font-semibold">{scan.trackingNumber}</span>
                  <span className="text-gray-700">{summary(scan)}</span>
                  {scan.eventId && scan.undoable ? (
                    undone.includes(scan.eventId) ? (
                      <span className="ml-auto text-gray-500">Undone</span>
                    ) : (
                      <undoFetcher.Form method="post" className="ml-auto">
                        <input type="hidden" name="intent" value="undo" />
                        <input type="hidden" name="eventId" value={scan.eventId} />
                        <button
                          type="submit"
                          className="inline-flex min-h-6 items-center px-1 text-sm font-medium text-brand-700 hover:underline"
                          aria-label={`Undo ${scan.trackingNumber}`}
                        >
                          Undo
                        </button>
                      </undoFetcher.Form>
                    )
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <p className="text-sm text-gray-600">
        <Link
          to="/dashboard/parcels"
          className="inline-flex min-h-6 items-center text-brand-700 hover:underline"
        >
          Parcels
        </Link>
      </p>
    </div>
  );
}

function summary(scan: ScanView): string {
  switch (scan.outcome) {
    case 'not-found':
      return TRACKING_NOT_FOUND;
    case 'repeated':
      return `Already scanned: ${scan.status}`;
    case 'closed':
      return `Not recorded: ${scan.status}`;
    case 'needs-proof':
      return 'Not recorded: needs its proof of delivery';
    case 'needs-confirmation':
      return 'Not recorded: check before sending it out';
    default:
      return `Now ${scan.status}`;
  }
}

type ScanFormFrame = (children: ReactNode, className?: string) => ReactNode;

/** The answer to the last scan: the parcel, its new status and how it is to be delivered. */
function ScanAnswer({
  scan,
  undone,
  undoForm,
  scanForm,
}: {
  scan: ScanView;
  undone: string[];
  undoForm: (eventId: string) => ReactNode;
  /** A form posting another scan from this station (its place already in it). */
  scanForm: ScanFormFrame;
}) {
  if (scan.outcome === 'not-found') {
    return (
      <div className="rounded-md border border-red-200 bg-red-50 p-4 text-red-800">
        <p className="font-mono font-semibold">{scan.trackingNumber}</p>
        <p>{TRACKING_NOT_FOUND}</p>
        {scan.hint ? <p className="mt-1 text-sm text-gray-800">{scan.hint}</p> : null}
      </div>
    );
  }
  const parcel = (
    <>
      <p className="text-sm">
        {scan.recipientName}
        {scan.recipientAddress ? `, ${scan.recipientAddress}` : ''}
      </p>
      {scan.deliveryPreferences ? (
        <p className="mt-1 text-sm">
          <span className="font-medium">Delivery preferences:</span> {scan.deliveryPreferences}
        </p>
      ) : null}
    </>
  );
  if (scan.outcome === 'closed' || scan.outcome === 'needs-proof') {
    return (
      <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-4 text-gray-900">
        <p className="font-mono text-lg font-semibold">{scan.trackingNumber}</p>
        <p className="font-medium">{scan.message}</p>
        {parcel}
        {scan.outcome === 'needs-proof' && scan.proofHref ? (
          <Link to={scan.proofHref} className="btn-primary min-h-11 w-full">
            Record proof of delivery
          </Link>
        ) : null}
      </div>
    );
  }
  if (scan.outcome === 'needs-confirmation') {
    return (
      <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-4 text-gray-900">
        <p className="font-mono text-lg font-semibold">{scan.trackingNumber}</p>
        <p className="font-medium">Check before sending it out: it is not recorded yet.</p>
        <ul className="list-disc pl-5 text-sm">
          {scan.warnings?.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
        {parcel}
        {scanForm(
          <>
            <input type="hidden" name="trackingNumber" value={scan.trackingNumber} />
            <input type="hidden" name="status" value="Out for Delivery" />
            <input type="hidden" name="override" value="on" />
            <button type="submit" className="btn-primary min-h-11 w-full">
              Out for Delivery anyway
            </button>
          </>,
        )}
      </div>
    );
  }
  const isUndone = !!scan.eventId && undone.includes(scan.eventId);
  return (
    <div className="space-y-2 rounded-md border border-green-200 bg-green-50 p-4 text-gray-900">
      <p className="font-mono text-lg font-semibold">{scan.trackingNumber}</p>
      <p className="font-medium">
        {isUndone ? 'Scan undone' : summary(scan)}
        {scan.location ? ` · ${scan.eventStatus} at ${scan.location}` : ''}
      </p>
      {scan.regressedFrom && !isUndone ? (
        <p className="rounded bg-amber-100 px-2 py-1 text-sm font-medium text-amber-900">
          Moved back from {scan.regressedFrom}.
        </p>
      ) : null}
      {parcel}
      {scan.proofHref && !isUndone ? <Doorstep scan={scan} scanForm={scanForm} /> : null}
      {scan.eventId && scan.undoable && !isUndone ? undoForm(scan.eventId) : null}
    </div>
  );
}

/**
 * At the door, for a parcel out for delivery: Delivered opens its proof form with the stop
 * chosen; each reason button records the failed attempt at once.
 */
function Doorstep({ scan, scanForm }: { scan: ScanView; scanForm: ScanFormFrame }) {
  return (
    <div className="space-y-3 border-t border-green-200 pt-3">
      <Link to={scan.proofHref!} className="btn-primary min-h-11 w-full">
        Delivered
      </Link>
      {scanForm(<FailedReasons trackingNumber={scan.trackingNumber} />)}
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
