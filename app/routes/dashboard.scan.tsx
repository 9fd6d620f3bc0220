import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useActionData, useFetcher, useLoaderData, useLocation } from '@remix-run/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CameraScan } from '~/components/scan/camera-scan';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FormErrors } from '~/components/ui/field';
import { listDepots } from '~/models/depot.server';
import {
  FAILED_DELIVERY,
  FAILURE_REASON_CODES,
  failureReasonLabel,
  TRACKING_NUMBER_PLACEHOLDER,
} from '~/schemas/constants';
import { SCAN_STATUSES, ScanSchema, ScanSetupSchema, ScanUndoSchema } from '~/schemas/scan';
import { requireUserWithRole } from '~/services/auth.server';
import { TRACKING_NOT_FOUND } from '~/services/public-tracking.server';
import { recordScan, undoScan, UndoNotAllowed } from '~/services/scans.server';
import { readFormData } from '~/lib/form.server';
import { mistypedHint } from '~/utils/tracking-number';

/**
 * The scan station: staff and couriers choose the status and the depot (or place) once, kept in
 * the URL, then scan or type numbers one after another. A scanner types the number and Enter, so
 * each scan is a plain form post answered with this page; with JavaScript the answer comes
 * without leaving the page, the field keeps focus and this session's scans can be undone.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'courier');
  const setup = ScanSetupSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const depots = (await listDepots()).map(({ id, name, timeZone }) => ({ id, name, timeZone }));
  const depot = depots.find((d) => d.id === setup.depot) ?? null;
  return json({ setup: { ...setup, depot: depot?.id }, depot, depots });
}

export type ScanView = {
  trackingNumber: string;
  outcome: 'recorded' | 'repeated' | 'not-found';
  /** The sentence after "Tracking number not found" for a number that fails its check digit. */
  hint?: string | null;
  eventId?: string;
  eventStatus?: string;
  location?: string;
  status?: string;
  recipientName?: string;
  recipientAddress?: string;
  deliveryPreferences?: string | null;
};

/** A parcel's delivery preferences as one line, when it has any. */
function preferencesText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (value && typeof value === 'object') {
    const parts = Object.values(value).filter(
      (v): v is string => typeof v === 'string' && v.trim() !== '',
    );
    return parts.length ? parts.join(' · ') : null;
  }
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'courier');
  const actor = { user, context };
  const formData = await readFormData(request);
  if (formData.get('intent') === 'undo') {
    const submission = parseWithZod(formData, { schema: ScanUndoSchema });
    if (submission.status !== 'success')
      return json({ intent: 'undo' as const, undone: null, error: 'Invalid event' }, 400);
    try {
      const event = await undoScan(submission.value.eventId, actor);
      return json({
        intent: 'undo' as const,
        undone: submission.value.eventId,
        error: event ? null : 'That scan was already undone.',
      });
    } catch (error) {
      if (!(error instanceof UndoNotAllowed)) throw error;
      return json({ intent: 'undo' as const, undone: null, error: error.message }, 403);
    }
  }
  const submission = parseWithZod(formData, { schema: ScanSchema });
  if (submission.status !== 'success')
    return json({ intent: 'scan' as const, result: submission.reply(), scan: null }, 400);
  const outcome = await recordScan(submission.value, actor);
  let scan: ScanView;
  if (outcome.kind === 'not-found') {
    scan = {
      trackingNumber: outcome.trackingNumber,
      outcome: 'not-found',
      hint: outcome.mistyped ? mistypedHint(outcome.trackingNumber) : null,
    };
  } else {
    const { parcel, event } = outcome;
    scan = {
      trackingNumber: parcel.trackingNumber,
      outcome: outcome.kind,
      eventId: event.id,
      eventStatus: event.status,
      location: event.location,
      status: parcel.status,
      recipientName: parcel.recipient.name,
      recipientAddress: parcel.recipient.address,
      deliveryPreferences: preferencesText(
        (parcel as { deliveryPreferences?: unknown }).deliveryPreferences,
      ),
    };
  }
  return json(
    { intent: 'scan' as const, result: submission.reply({ resetForm: true }), scan },
    { status: outcome.kind === 'not-found' ? (outcome.mistyped ? 400 : 404) : 200 },
  );
}

export const meta: MetaFunction = () => [{ title: 'Scan · Management dashboard' }];

type ActionData =
  Awaited<ReturnType<typeof action>> extends infer R
    ? R extends { json(): Promise<infer D> }
      ? D
      : never
    : never;

export default function ScanStation() {
  const { setup, depot, depots } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const { search } = useLocation();
  const scanFetcher = useFetcher<typeof action>({ key: 'scan' });
  const undoFetcher = useFetcher<typeof action>({ key: 'scan-undo' });
  const input = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const [session, setSession] = useState<ScanView[]>([]);
  const [undone, setUndone] = useState<string[]>([]);

  const latest = (scanFetcher.data ?? actionData) as ActionData | undefined;
  const scanData = latest?.intent === 'scan' ? latest : undefined;
  const [conformForm, fields] = useForm({
    id: 'scan',
    lastResult: scanFetcher.state === 'idle' ? scanData?.result : null,
  });

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
  const busy = scanFetcher.state !== 'idle';
  const current = scanData?.scan ?? null;

  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">Scan</h1>

      <details open={!ready} className="card p-4">
        <summary className="cursor-pointer font-semibold">
          {ready ? `${setup.status} · ${place}` : 'Choose what to record'}
        </summary>
        <form method="get" action="/dashboard/scan" className="mt-3 space-y-3">
          <label className="block">
            <span className="field-label">Status</span>
            <select name="status" defaultValue={setup.status ?? ''} className="field-input">
              <option value="">Choose a status</option>
              {SCAN_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label className="block">
            <span className="field-label">Depot</span>
            <select name="depot" defaultValue={depot?.id ?? ''} className="field-input">
              <option value="">None (enter the location)</option>
              {depots.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <label className="block">
            <span className="field-label">Location (without a depot)</span>
            <input
              name="location"
              defaultValue={setup.location ?? ''}
              className="field-input"
              placeholder="e.g. 12 Harbour Rd"
            />
          </label>
          <fieldset className="space-y-3 rounded-md border border-gray-200 p-3">
            <legend className="px-1 text-sm font-medium text-gray-700">
              Only for {FAILED_DELIVERY}
            </legend>
            <label className="block">
              <span className="field-label">Reason</span>
              <select name="reason" defaultValue={setup.reason ?? ''} className="field-input">
                <option value="">Choose a reason</option>
                {FAILURE_REASON_CODES.map((code) => (
                  <option key={code} value={code}>
                    {failureReasonLabel(code)}
                  </option>
                ))}
              </select>
            </label>
            <label className="block">
              <span className="field-label">Note (required for Other)</span>
              <input name="note" defaultValue={setup.note ?? ''} className="field-input" />
            </label>
            <label className="block">
              <span className="field-label">Next attempt (optional)</span>
              <input
                type="date"
                name="nextAttemptDate"
                defaultValue={setup.nextAttemptDate ?? ''}
                className="field-input"
              />
            </label>
          </fieldset>
          <button type="submit" className="btn-primary w-full">
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
            action={`/dashboard/scan${search}`}
            ref={form}
            {...getFormProps(conformForm)}
            className="space-y-3"
          >
            <input type="hidden" name="status" value={setup.status ?? ''} />
            {depot ? <input type="hidden" name="depotId" value={depot.id} /> : null}
            {!depot && setup.location ? (
              <input type="hidden" name="location" value={setup.location} />
            ) : null}
            {failed && setup.reason ? (
              <input type="hidden" name="reason" value={setup.reason} />
            ) : null}
            {failed && setup.note ? <input type="hidden" name="note" value={setup.note} /> : null}
            {failed && setup.nextAttemptDate ? (
              <input type="hidden" name="nextAttemptDate" value={setup.nextAttemptDate} />
            ) : null}
            <FormErrors
              id={conformForm.errorId}
              errors={[
                ...(conformForm.errors ?? []),
                ...['status', 'depotId', 'location', 'reason', 'note', 'nextAttemptDate'].flatMap(
                  (name) => conformForm.allErrors[name] ?? [],
                ),
              ]}
            />
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
              aria-invalid={fields.trackingNumber.errors ? true : undefined}
              aria-describedby={fields.trackingNumber.errors ? 'scan-number-error' : undefined}
              className="field-input py-3 font-mono text-lg"
            />
            {fields.trackingNumber.errors ? (
              <p id="scan-number-error" className="field-error">
                {fields.trackingNumber.errors[0]}
              </p>
            ) : null}
            <button type="submit" className="btn-primary w-full" disabled={busy}>
              {busy ? 'Recording...' : `Record ${setup.status}`}
            </button>
          </scanFetcher.Form>
          <CameraScan
            onCode={(code) => {
              if (!input.current || !form.current) return;
              input.current.value = code;
              scanFetcher.submit(form.current);
            }}
          />
        </section>
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
                <button type="submit" className="btn-secondary">
                  Undo this scan
                </button>
              </undoFetcher.Form>
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
                  {scan.eventId && scan.outcome === 'recorded' ? (
                    undone.includes(scan.eventId) ? (
                      <span className="ml-auto text-gray-500">Undone</span>
                    ) : (
                      <undoFetcher.Form method="post" className="ml-auto">
                        <input type="hidden" name="intent" value="undo" />
                        <input type="hidden" name="eventId" value={scan.eventId} />
                        <button
                          type="submit"
                          className="text-sm font-medium text-brand-700 hover:underline"
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
        <Link to="/dashboard/parcels" className="text-brand-700 hover:underline">
          Parcels
        </Link>
      </p>
    </div>
  );
}

function summary(scan: ScanView): string {
  if (scan.outcome === 'not-found') return TRACKING_NOT_FOUND;
  if (scan.outcome === 'repeated') return `Already scanned: ${scan.status}`;
  return `Now ${scan.status}`;
}

/** The answer to the last scan: the parcel, its new status and how it is to be delivered. */
function ScanAnswer({
  scan,
  undone,
  undoForm,
}: {
  scan: ScanView;
  undone: string[];
  undoForm: (eventId: string) => ReactNode;
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
  const isUndone = !!scan.eventId && undone.includes(scan.eventId);
  return (
    <div className="rounded-md border border-green-200 bg-green-50 p-4 text-gray-900">
      <p className="font-mono text-lg font-semibold">{scan.trackingNumber}</p>
      <p className="font-medium">
        {isUndone ? 'Scan undone' : summary(scan)}
        {scan.location ? ` · ${scan.eventStatus} at ${scan.location}` : ''}
      </p>
      <p className="text-sm">
        {scan.recipientName}
        {scan.recipientAddress ? `, ${scan.recipientAddress}` : ''}
      </p>
      {scan.deliveryPreferences ? (
        <p className="mt-1 text-sm">
          <span className="font-medium">Delivery preferences:</span> {scan.deliveryPreferences}
        </p>
      ) : null}
      {scan.eventId && scan.outcome === 'recorded' && !isUndone ? undoForm(scan.eventId) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
