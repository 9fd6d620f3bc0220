import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CardSection } from '~/components/ui/card-section';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { requireUserWithRole } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { invalidForm } from '~/lib/form-reply.server';
import { readFormData } from '~/lib/form.server';
import { listAccountNames } from '~/models/account.server';
import { SERVICE_TYPES } from '~/schemas/constants';
import { RateCardFormSchema, rateCardForm, type RateCardFormValues } from '~/schemas/rate-card';
import { getRateCard, updateRateCard } from '~/services/rate-card.server';

const PATH = '/dashboard/settings/prices';
/** Blank rows under each list, for adding without JavaScript. */
const SPARE_ROWS = { zones: 2, prices: 4, accountDiscounts: 2 } as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'admin');
  const card = await getRateCard();
  return json({
    values: rateCardForm(card),
    updatedAt: card.updatedAt,
    accounts: await listAccountNames(),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'admin');
  const submission = parseWithZod(await readFormData(request), { schema: RateCardFormSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  await updateRateCard(submission.value, { user, context });
  return redirectWithToast(request, PATH, {
    type: 'success',
    title: 'Prices saved',
    description: 'New quotes are priced by this card; booked parcels keep their price.',
  });
}

export const meta: MetaFunction = () => [{ title: 'Prices · Settings · Management dashboard' }];

type Row = Record<string, string>;

/** The rows of a list as shown: those of the card (or as typed), then blank ones. */
function rowsOf<T extends Row>(rows: T[] | undefined, spare: number, blank: T): T[] {
  return [...(rows ?? []), ...Array.from({ length: spare }, () => blank)];
}

function Cell({
  name,
  label,
  value,
  ...rest
}: { name: string; label: string; value?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <td className="p-1">
      <input
        name={name}
        aria-label={label}
        defaultValue={value ?? ''}
        className="input w-full"
        {...rest}
      />
    </td>
  );
}

function Table({
  caption,
  heads,
  children,
}: {
  caption: string;
  heads: string[];
  children: React.ReactNode;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {heads.map((head) => (
              <th key={head} scope="col" className="p-1 text-left font-medium text-gray-700">
                {head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * What was typed, one value a field: a list of rows stays a list, but a field sent twice (only a
 * tampered form does that) shows the first of its values.
 */
function typed(value: unknown): unknown {
  if (Array.isArray(value))
    return value.every((one) => one === null || typeof one === 'string')
      ? (value[0] ?? '')
      : value.map(typed);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, one]) => [key, typed(one)]));
  return value;
}

export default function PriceSettings() {
  const loaded = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const pending = useIsPending();
  // After a refusal, the form shows what was typed.
  const values =
    (typed(lastResult?.initialValue) as Partial<RateCardFormValues> | undefined) ?? loaded.values;
  const errors = Object.entries(lastResult?.error ?? {}).flatMap(([field, messages]) =>
    (messages ?? []).map((message) => `${field || 'Form'}: ${message}`),
  );
  const zoneCodes = (values.zones ?? []).map((zone) => zone.code).filter(Boolean);

  return (
    <Form method="post" action={PATH} className="space-y-6" aria-labelledby="prices-heading">
      <h2 id="prices-heading" className="sr-only">
        Prices
      </h2>
      {errors.length ? (
        <div
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          <p className="font-semibold">The prices were not saved:</p>
          <ul className="list-disc pl-5">
            {errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <CardSection
        headingId="rate-card-heading"
        title="Rate card"
        description="Quotes and bookings are priced by this card: the price of the destination’s zone and the service for the smallest weight band that holds the parcel’s chargeable weight (the larger of its weight and its volume over the divisor), then the surcharges."
      >
        <div className="grid gap-4 sm:grid-cols-4">
          {(
            [
              ['currency', 'Currency (ISO 4217)', 'text'],
              ['volumetricDivisor', 'Volumetric divisor (cm³ per kg)', 'number'],
              ['fuelSurchargePercent', 'Fuel surcharge (%)', 'text'],
              ['remoteSurcharge', 'Remote area surcharge', 'text'],
            ] as const
          ).map(([name, label, type]) => (
            <label key={name} className="block text-sm font-medium text-gray-700">
              {label}
              <input
                name={name}
                type={type}
                inputMode={type === 'text' && name !== 'currency' ? 'decimal' : undefined}
                defaultValue={values[name] ?? ''}
                className="input mt-1 w-full"
              />
            </label>
          ))}
        </div>
        <label className="mt-4 block text-sm font-medium text-gray-700">
          Remote postcodes: one country per line, then its postcode prefixes (e.g. US 995 996)
          <textarea
            name="remoteAreas"
            rows={3}
            defaultValue={values.remoteAreas ?? ''}
            className="input mt-1 w-full font-mono"
          />
        </label>
      </CardSection>

      <CardSection
        headingId="zones-heading"
        title="Zones"
        description="A zone covers its countries, or only the postcodes starting with one of its prefixes (the longest matching prefix wins). Clear a row to remove it."
      >
        <Table caption="Zones" heads={['Code', 'Name', 'Countries', 'Postcode prefixes']}>
          {rowsOf(values.zones, SPARE_ROWS.zones, {
            code: '',
            name: '',
            countries: '',
            postcodePrefixes: '',
          }).map((zone, index) => (
            <tr key={index}>
              <Cell
                name={`zones[${index}].code`}
                label={`Zone ${index + 1} code`}
                value={zone.code}
              />
              <Cell
                name={`zones[${index}].name`}
                label={`Zone ${index + 1} name`}
                value={zone.name}
              />
              <Cell
                name={`zones[${index}].countries`}
                label={`Zone ${index + 1} countries`}
                value={zone.countries}
              />
              <Cell
                name={`zones[${index}].postcodePrefixes`}
                label={`Zone ${index + 1} postcode prefixes`}
                value={zone.postcodePrefixes}
              />
            </tr>
          ))}
        </Table>
      </CardSection>

      <CardSection
        headingId="weight-bands-heading"
        title="Weight bands"
        description="The price of a parcel up to each weight, by zone and service. Clear a row to remove it."
      >
        <Table caption="Weight bands" heads={['Zone', 'Service', 'Up to (kg)', 'Price']}>
          {rowsOf(values.prices, SPARE_ROWS.prices, {
            zone: '',
            serviceType: '',
            maxWeightKg: '',
            price: '',
          }).map((price, index) => (
            <tr key={index}>
              <td className="p-1">
                <select
                  name={`prices[${index}].zone`}
                  aria-label={`Band ${index + 1} zone`}
                  defaultValue={price.zone}
                  className="input w-full"
                >
                  <option value="">—</option>
                  {zoneCodes.map((code) => (
                    <option key={code}>{code}</option>
                  ))}
                </select>
              </td>
              <td className="p-1">
                <select
                  name={`prices[${index}].serviceType`}
                  aria-label={`Band ${index + 1} service`}
                  defaultValue={price.serviceType}
                  className="input w-full"
                >
                  <option value="">—</option>
                  {SERVICE_TYPES.map((service) => (
                    <option key={service}>{service}</option>
                  ))}
                </select>
              </td>
              <Cell
                name={`prices[${index}].maxWeightKg`}
                label={`Band ${index + 1} up to (kg)`}
                value={price.maxWeightKg}
                inputMode="decimal"
              />
              <Cell
                name={`prices[${index}].price`}
                label={`Band ${index + 1} price`}
                value={price.price}
                inputMode="decimal"
              />
            </tr>
          ))}
        </Table>
      </CardSection>

      <CardSection
        headingId="discounts-heading"
        title="Account discounts"
        description="A shipper account’s discount off every price it is quoted (with its API key or in its portal)."
      >
        <Table caption="Account discounts" heads={['Account', 'Discount (%)']}>
          {rowsOf(values.accountDiscounts, SPARE_ROWS.accountDiscounts, {
            accountId: '',
            discountPercent: '',
          }).map((row, index) => (
            <tr key={index}>
              <td className="p-1">
                <select
                  name={`accountDiscounts[${index}].accountId`}
                  aria-label={`Discount ${index + 1} account`}
                  defaultValue={row.accountId}
                  className="input w-full"
                >
                  <option value="">—</option>
                  {loaded.accounts.map((account) => (
                    <option key={account.id} value={account.id}>
                      {account.name}
                    </option>
                  ))}
                </select>
              </td>
              <Cell
                name={`accountDiscounts[${index}].discountPercent`}
                label={`Discount ${index + 1} percent`}
                value={row.discountPercent}
                inputMode="decimal"
              />
            </tr>
          ))}
        </Table>
      </CardSection>

      <SubmitButton className="btn-primary" pending={pending} pendingLabel="Saving...">
        Save prices
      </SubmitButton>
    </Form>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
