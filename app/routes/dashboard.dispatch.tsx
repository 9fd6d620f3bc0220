import { getFormProps, useForm } from '@conform-to/react';
import type { MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useSubmit } from '@remix-run/react';
import { lazy, Suspense, type ReactNode } from 'react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CardSection } from '~/components/ui/card-section';
import { FormErrors, SelectField } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { dispatchAction, dispatchLoader } from '~/http/dispatch-pages.server';
import { useHydrated } from '~/utils/use-hydrated';
import { useIsPending } from '~/utils/use-is-pending';
import { DayAndDepotForm } from '~/components/runs/day-and-depot-form';

// Dragging a planned run's stops: dnd-kit, fetched once the page is interactive.
const SortableStops = lazy(() => import('~/components/dispatch/sortable-stops'));

/**
 * Dispatch: one depot's day. The parcels due there and the pickups scheduled there, not on a run
 * yet, in one suggested order (postcode, then street): tick them and choose a courier to add them
 * to that courier's run. Each
 * run lists its stops in order, each moved up or down with a button (or, with JavaScript, dragged:
 * the drop posts the same move with its position), and prints as a run sheet. Everything is a
 * plain form.
 */
export { dispatchAction as action, dispatchLoader as loader };

export const meta: MetaFunction = () => [{ title: 'Dispatch · Management dashboard' }];

type Line = ReturnType<typeof useLoaderData<typeof dispatchLoader>>['toDispatch'][number];

/** How a stop is named to a screen reader: its tracking number, or whose pickup it is. */
const stopName = (line: Line) => line.trackingNumber || `the pickup of ${line.recipientName}`;

function ParcelLine({ parcel }: { parcel: Line }) {
  return (
    <>
      {parcel.kind === 'pickup' ? (
        <span className="font-semibold uppercase text-brand-700">Pickup</span>
      ) : (
        <span className="font-mono font-semibold">{parcel.trackingNumber}</span>
      )}{' '}
      <span className="text-gray-900">{parcel.recipientName}</span>
      <span className="block text-gray-700">{parcel.address}</span>
      {parcel.preferences ? (
        <span className="block text-gray-600">{parcel.preferences}</span>
      ) : null}
    </>
  );
}

export default function Dispatch() {
  const { date, depotId, depots, couriers, toDispatch, runs } =
    useLoaderData<typeof dispatchLoader>();
  const lastResult = useActionData<typeof dispatchAction>();
  const [form] = useForm({ id: 'dispatch-assign', lastResult });
  const day = `?date=${date}&depot=${depotId ?? ''}`;
  const hydrated = useHydrated();
  const submit = useSubmit();
  const adding = useIsPending({
    formAction: `/dashboard/dispatch${day}`,
    formData: { intent: 'assign' },
  });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Dispatch</h1>
      <DayAndDepotForm date={date} depotId={depotId ?? ''} depots={depots} none="Choose a depot" />
      {depotId ? (
        <>
          <CardSection
            headingId="to-dispatch"
            title={`To dispatch (${toDispatch.length})`}
            description="Parcels due and pickups scheduled this day at this depot and on no run yet, by postcode then street."
            empty={toDispatch.length === 0 && 'No parcels left to dispatch for this day.'}
          >
            {toDispatch.length ? (
              <Form
                method="post"
                action={`/dashboard/dispatch${day}`}
                {...getFormProps(form)}
                className="space-y-3"
              >
                <FormErrors id={form.errorId} errors={form.errors} />
                <input type="hidden" name="intent" value="assign" />
                <ul className="divide-y divide-gray-100">
                  {toDispatch.map((parcel) => (
                    <li key={parcel.id} className="py-2 text-sm">
                      <label className="flex items-start gap-3">
                        <input
                          type="checkbox"
                          name={parcel.kind === 'pickup' ? 'pickupIds' : 'ids'}
                          value={parcel.id}
                          className="mt-1 h-5 w-5"
                        />
                        <span>
                          <ParcelLine parcel={parcel} />
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
                <div className="flex flex-wrap items-end gap-3">
                  <SelectField
                    label="Courier"
                    name="courierId"
                    defaultValue=""
                    options={[
                      { value: '', label: 'Choose a courier' },
                      ...couriers.map((c) => ({ value: c.id, label: c.name })),
                    ]}
                  />
                  <SubmitButton
                    className="btn-primary min-h-11"
                    pending={adding}
                    pendingLabel="Adding..."
                  >
                    Add to run
                  </SubmitButton>
                </div>
              </Form>
            ) : null}
          </CardSection>
          {runs.map((run) => {
            const stopRow = (stop: (typeof run.stops)[number], i: number): ReactNode => (
              <>
                <span className="flex-1">
                  <span className="font-semibold">{i + 1}.</span> <ParcelLine parcel={stop} />
                </span>
                {run.status === 'planned' ? (
                  <Form
                    method="post"
                    action={`/dashboard/dispatch${day}`}
                    className="flex shrink-0 gap-1"
                  >
                    <input type="hidden" name="intent" value="move" />
                    <input type="hidden" name="runId" value={run.id} />
                    <input
                      type="hidden"
                      name={stop.kind === 'pickup' ? 'pickupId' : 'parcelId'}
                      value={stop.id}
                    />
                    {(['up', 'down'] as const).map((direction) => (
                      <button
                        key={direction}
                        type="submit"
                        name="direction"
                        value={direction}
                        className="btn-secondary min-h-11"
                        disabled={direction === 'up' ? i === 0 : i === run.stops.length - 1}
                        aria-label={`Move ${stopName(stop)} ${direction}`}
                      >
                        {direction === 'up' ? 'Up' : 'Down'}
                      </button>
                    ))}
                  </Form>
                ) : null}
              </>
            );
            const plainStops = (
              <ol className="divide-y divide-gray-100">
                {run.stops.map((stop, i) => (
                  <li key={stop.id} className="flex items-start justify-between gap-3 py-2 text-sm">
                    {stopRow(stop, i)}
                  </li>
                ))}
              </ol>
            );
            return (
              <CardSection
                key={run.id}
                headingId={`run-${run.id}`}
                title={`Run of ${run.courier} · ${run.status} · ${run.stops.length} stops`}
                empty={run.stops.length === 0 && 'No stops on this run.'}
              >
                <p className="mb-2 text-sm">
                  <a
                    href={`/dashboard/dispatch/${run.id}/sheet.pdf`}
                    className="text-brand-700 underline"
                  >
                    Run sheet (PDF)
                  </a>
                </p>
                {run.status === 'planned' && hydrated ? (
                  <Suspense fallback={plainStops}>
                    <SortableStops
                      stops={run.stops.map((stop) => ({
                        id: stop.id,
                        trackingNumber: stopName(stop),
                      }))}
                      onMove={(moved, position) => {
                        const stop = run.stops.find((s) => s.id === moved.id)!;
                        const key = stop.kind === 'pickup' ? 'pickupId' : 'parcelId';
                        submit(
                          { intent: 'move', runId: run.id, [key]: stop.id, position },
                          { method: 'post', action: `/dashboard/dispatch${day}` },
                        );
                      }}
                    >
                      {(id, i) =>
                        stopRow(
                          run.stops.find((stop) => stop.id === id)!,
                          i,
                        )
                      }
                    </SortableStops>
                  </Suspense>
                ) : (
                  plainStops
                )}
              </CardSection>
            );
          })}
        </>
      ) : (
        <p className="text-gray-700">Choose a depot and a day.</p>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
