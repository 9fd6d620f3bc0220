import { InputsFromTable, type InputSpec } from '~/components/ui/input-table';
import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CardSection, ListCard } from '~/components/ui/card-section';
import { ConfirmPanel } from '~/components/settings/confirm-panel';
import { Field, FormErrors } from '~/components/ui/field';
import { listDepots } from '~/models/depot.server';
import { getOperationsSettings } from '~/models/operations-settings.server';
import {
  DEPOT_ADDRESS_MAX,
  DEPOT_CITY_MAX,
  DEPOT_NAME_MAX,
  DeliverySettingsSchema,
  DepotDeleteSchema,
  DepotSchema,
  ExceptionSettingsSchema,
  STALE_SCAN_DAYS_MAX,
} from '~/schemas/depot';
import { PickupSettingsSchema } from '~/schemas/pickup';
import { requireUserWithRole } from '~/http/auth.server';
import {
  createDepot,
  deleteDepot,
  DepotNameTaken,
  saveDeliveredByScan,
  savePickupCutoff,
  saveStaleScanDays,
} from '~/services/depots.server';
import { GONE, redirectWithOutcome, redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { TIME_ZONE_CHOICES } from '~/utils/time-zone';
import { env } from '~/lib/env.server';
import { InputFor, SelectFor } from '~/components/ui/conform-fields';

const PATH = '/dashboard/settings/depots';
const DepotCreateFormSchema = DepotSchema;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'admin');
  const depots = await listDepots();
  // `?delete=<id>`: the depot whose removal the page asks to confirm.
  const deleteId = new URL(request.url).searchParams.get('delete');
  return json({
    depots,
    toDelete: depots.find((depot) => depot.id === deleteId) ?? null,
    settings: await getOperationsSettings(),
    companyTimeZone: env.COMPANY_TIMEZONE,
  });
}

/**
 * One of the page's settings forms: its answer with its errors (400), or the setting saved and
 * "Settings saved".
 */
async function saveSetting<Schema extends z.ZodType>(
  request: Request,
  formData: FormData,
  intent: string,
  schema: Schema,
  save: (value: z.output<Schema>) => Promise<unknown>,
) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success')
    return json({ intent, result: submission.reply() }, { status: 400 });
  await save(submission.value);
  return redirectWithToast(request, PATH, { type: 'success', title: 'Settings saved' });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'admin');
  const actor = { user, context };
  const formData = await readFormData(request);
  const intent = formData.get('intent');
  if (intent === 'delete') {
    const submission = parseWithZod(formData, { schema: DepotDeleteSchema });
    if (submission.status !== 'success')
      return json({ intent, result: submission.reply() }, { status: 400 });
    const depot = await deleteDepot(submission.value.depotId, actor);
    return redirectWithOutcome(request, PATH, depot, {
      gone: { title: 'Failed to delete depot', description: GONE },
      done: (deleted) => ({ title: 'Depot deleted', description: deleted.name }),
    });
  }
  if (intent === 'deliveries')
    return saveSetting(request, formData, intent, DeliverySettingsSchema, (value) =>
      saveDeliveredByScan(value.deliveredByScan, actor),
    );
  if (intent === 'exceptions')
    return saveSetting(request, formData, intent, ExceptionSettingsSchema, (value) =>
      saveStaleScanDays(value.staleScanDays, actor),
    );
  if (intent === 'pickups')
    return saveSetting(request, formData, intent, PickupSettingsSchema, (value) =>
      savePickupCutoff(value.pickupCutoff, actor),
    );
  const submission = parseWithZod(formData, { schema: DepotCreateFormSchema });
  if (submission.status !== 'success')
    return json({ intent: 'create', result: submission.reply() }, { status: 400 });
  try {
    const depot = await createDepot(submission.value, actor);
    return redirectWithToast(request, PATH, {
      type: 'success',
      title: 'Depot added',
      description: depot.name,
    });
  } catch (error) {
    if (!(error instanceof DepotNameTaken)) throw error;
    return json(
      { intent: 'create', result: submission.reply({ fieldErrors: { name: [error.message] } }) },
      { status: 409 },
    );
  }
}

/** The depot form's inputs, in order. */
const DEPOT_INPUTS: ReadonlyArray<InputSpec<'name' | 'address' | 'city'>> = [
  { name: 'name', label: 'Name', maxLength: DEPOT_NAME_MAX },
  { name: 'address', label: 'Address', maxLength: DEPOT_ADDRESS_MAX },
  {
    name: 'city',
    label: 'City (optional)',
    hint: 'The town its couriers deliver in: the scan station warns before a parcel for another town goes out for delivery from here.',
    maxLength: DEPOT_CITY_MAX,
  },
];

export const meta: MetaFunction = () => [{ title: 'Depots · Settings · Management dashboard' }];

export default function DepotSettings() {
  const { depots, toDelete, settings, companyTimeZone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const resultFor = (intent: string) =>
    navigation.state === 'idle' && actionData?.intent === intent ? actionData.result : null;
  const [form, fields] = useForm({
    id: 'create-depot',
    lastResult: resultFor('create'),
    defaultValue: { name: '', address: '', city: '', timeZone: companyTimeZone },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DepotCreateFormSchema }),
  });
  const [exceptionsForm, exceptionFields] = useForm({
    id: 'exception-settings',
    lastResult: resultFor('exceptions'),
    defaultValue: { staleScanDays: String(settings.staleScanDays) },
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ExceptionSettingsSchema }),
  });

  return (
    <div className="space-y-6">
      {toDelete ? (
        <ConfirmPanel
          id="delete-depot"
          title={`Delete the depot “${toDelete.name}”?`}
          action={PATH}
          intent="delete"
          fields={{ depotId: toDelete.id }}
          confirmLabel="Delete depot"
          busyLabel="Deleting..."
          cancelTo={PATH}
        >
          <p>Events already recorded there keep its name and time zone.</p>
        </ConfirmPanel>
      ) : null}

      <ListCard
        headingId="depots-heading"
        title="Depots"
        empty="No depots yet. Scans and events recorded at a depot take its name and time zone."
        items={depots}
        listClassName="divide-y divide-gray-100"
        itemClassName="flex flex-wrap items-center gap-x-4 gap-y-1 py-2"
      >
        {(depot) => (
          <>
            <span className="font-medium text-gray-900">{depot.name}</span>
            <span className="text-sm text-gray-600">
              {[depot.address, depot.city].filter(Boolean).join(' · ')}
            </span>
            <span className="text-sm text-gray-600">{depot.timeZone.replace(/_/g, ' ')}</span>
            <Link
              to={`${PATH}?delete=${depot.id}`}
              className="ml-auto text-sm font-medium text-red-700 hover:underline"
              aria-label={`Delete ${depot.name}`}
            >
              Delete
            </Link>
          </>
        )}
      </ListCard>

      <CardSection headingId="add-depot-heading" title="Add a depot">
        <Form method="post" action={PATH} {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <InputsFromTable inputs={DEPOT_INPUTS} of={fields} />
          <SelectFor label="Time zone" meta={fields.timeZone}>
            {TIME_ZONE_CHOICES.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replace(/_/g, ' ')}
              </option>
            ))}
          </SelectFor>
          <button type="submit" name="intent" value="create" className="btn-primary">
            Add depot
          </button>
        </Form>
      </CardSection>

      <SettingCard intent="deliveries" title="Deliveries" className="space-y-3">
        <label className="flex min-h-6 items-start gap-2 text-sm text-gray-800">
          <input
            type="checkbox"
            name="deliveredByScan"
            defaultChecked={settings.deliveredByScan}
            className="mt-0.5 h-5 w-5"
          />
          <span>
            Couriers may record Delivered with a scan that names who received the parcel (no photo
            or signature). Otherwise Delivered is recorded with a proof of delivery.
          </span>
        </label>
      </SettingCard>

      <SettingCard intent="pickups" title="Pickups">
        <Field
          label="Same-day pickups until (company time)"
          name="pickupCutoff"
          type="time"
          required
          defaultValue={settings.pickupCutoff}
          errors={resultFor('pickups')?.error?.pickupCutoff ?? undefined}
        />
      </SettingCard>

      <SettingCard intent="exceptions" title="Exceptions" formProps={getFormProps(exceptionsForm)}>
        <InputFor
          label="Days without a scan before an open parcel is listed"
          meta={exceptionFields.staleScanDays}
          type="number"
          min={1}
          max={STALE_SCAN_DAYS_MAX}
        />
      </SettingCard>
    </div>
  );
}

/** A card of one setting: its form, sent with its intent by the card's Save button. */
function SettingCard({
  intent,
  title,
  className = 'flex flex-wrap items-end gap-3',
  formProps,
  children,
}: {
  intent: 'deliveries' | 'pickups' | 'exceptions';
  title: string;
  className?: string;
  formProps?: ReturnType<typeof getFormProps>;
  children: ReactNode;
}) {
  return (
    <CardSection headingId={`${intent}-heading`} title={title}>
      <Form method="post" action={PATH} {...formProps} className={className}>
        {children}
        <button type="submit" name="intent" value={intent} className="btn-secondary">
          Save
        </button>
      </Form>
    </CardSection>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
