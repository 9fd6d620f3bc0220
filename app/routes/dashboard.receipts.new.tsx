import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { Field, FormErrors, SelectField } from '~/components/ui/field';
import { RouteDialog } from '~/components/ui/route-dialog';
import { Spinner } from '~/components/ui/spinner';
import {
  generateReceipt,
  getParcelChoice,
  listParcelChoices,
  type ParcelChoice,
} from '~/models/receipt.server';
import { formatMoney, PAYMENT_METHODS, RECEIPT_FORMATS } from '~/schemas/constants';
import {
  DEFAULT_PAYMENT_METHOD,
  DEFAULT_RECEIPT_FORMAT,
  ReceiptGenerateFormSchema,
  type PaymentMethod,
  type ReceiptFormat,
} from '~/schemas/receipt';
import { fieldErrors } from '~/services/api.server';
import { requireUser } from '~/services/auth.server';
import { redirectWithToast } from '~/services/flash.server';
import { useHydrated } from '~/utils/use-hydrated';

const LIST_PATH = '/dashboard/receipts';
const NEW_PATH = `${LIST_PATH}/new`;

const FORMAT_LABELS: Record<ReceiptFormat, string> = {
  pdf: 'PDF',
  html: 'HTML',
  txt: 'Plain text (TXT)',
};

type FormValues = {
  parcelId: string;
  customerName: string;
  customerEmail: string;
  paymentMethod: PaymentMethod;
  format: ReceiptFormat;
};

const asPaymentMethod = (value: unknown): PaymentMethod =>
  PAYMENT_METHODS.find((m) => m === value) ?? DEFAULT_PAYMENT_METHOD;
const asFormat = (value: unknown): ReceiptFormat =>
  RECEIPT_FORMATS.find((f) => f === value) ?? DEFAULT_RECEIPT_FORMAT;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const params = new URL(request.url).searchParams;
  const parcels = await listParcelChoices();
  const parcelId = params.get('parcelId') ?? '';
  let selected = parcels.find((p) => p.id === parcelId) ?? null;
  if (parcelId && !selected) {
    // An older parcel can still be chosen by link.
    selected = await getParcelChoice(parcelId);
    if (selected) parcels.push(selected);
  }
  // 'Use parcel details' (the no-JavaScript round trip) fills the customer from the parcel's sender.
  const values: FormValues = {
    parcelId: selected?.id ?? '',
    customerName: selected?.senderName ?? '',
    customerEmail: selected?.senderEmail ?? '',
    paymentMethod: asPaymentMethod(params.get('paymentMethod')),
    format: asFormat(params.get('format')),
  };
  return json({ parcels, values });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = Object.fromEntries(await request.formData());
  const values: FormValues = {
    parcelId: String(form.parcelId ?? ''),
    customerName: String(form.customerName ?? ''),
    customerEmail: String(form.customerEmail ?? ''),
    paymentMethod: asPaymentMethod(form.paymentMethod),
    format: asFormat(form.format),
  };
  const parsed = ReceiptGenerateFormSchema.safeParse(form);
  if (!parsed.success) return json({ values, errors: fieldErrors(parsed.error) }, { status: 400 });
  const { parcelId, ...overrides } = parsed.data;
  const receipt = await generateReceipt(parcelId, overrides);
  if (!receipt)
    return json({ values, errors: { parcelId: ['Parcel not found'] } }, { status: 400 });
  return redirectWithToast(request, LIST_PATH, {
    type: 'success',
    title: 'Receipt generated',
    description: receipt.receiptNumber,
  });
}

export const meta: MetaFunction = () => [{ title: 'Generate Receipt · Management dashboard' }];

export default function GenerateReceiptDialog() {
  const { parcels, values: loaded } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // A parcel applied through the URL starts the form afresh.
  const key = `${loaded.parcelId}|${loaded.customerName}|${loaded.customerEmail}`;
  return (
    <RouteDialog
      title="Generate Receipt"
      closeTo={LIST_PATH}
      description="Create a receipt for a parcel's shipping cost."
    >
      <GenerateReceiptForm
        key={key}
        parcels={parcels}
        initial={actionData?.values ?? loaded}
        errors={actionData?.errors}
      />
    </RouteDialog>
  );
}

function GenerateReceiptForm({
  parcels,
  initial,
  errors,
}: {
  parcels: ParcelChoice[];
  initial: FormValues;
  errors?: Record<string, string[]>;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [values, setValues] = useState<FormValues>(initial);
  const parcel = parcels.find((p) => p.id === values.parcelId) ?? null;
  const generating =
    navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const applying = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'GET';

  function chooseParcel(parcelId: string) {
    const chosen = parcels.find((p) => p.id === parcelId);
    setValues((v) => ({
      ...v,
      parcelId,
      customerName: chosen ? chosen.senderName : v.customerName,
      customerEmail: chosen ? chosen.senderEmail : v.customerEmail,
    }));
  }

  return (
    <Form method="post" action={NEW_PATH} className="space-y-4">
      <FormErrors errors={errors?.['']} />
      <SelectField
        label="Parcel"
        name="parcelId"
        required
        value={values.parcelId}
        onChange={(e) => chooseParcel(e.target.value)}
        errors={errors?.parcelId}
      >
        <option value="">Select a parcel…</option>
        {parcels.map((p) => (
          <option key={p.id} value={p.id}>
            {p.trackingNumber} — {p.senderName || 'No sender name'}
          </option>
        ))}
      </SelectField>
      {hydrated ? null : (
        <div>
          <button
            type="submit"
            formMethod="get"
            formAction={NEW_PATH}
            formNoValidate
            className="btn-secondary"
          >
            {applying ? <Spinner /> : null}
            Use parcel details
          </button>
          <p className="mt-1 text-xs text-gray-500">
            Fills the customer from the chosen parcel&apos;s sender.
          </p>
        </div>
      )}
      {parcel ? (
        <p className="rounded-md bg-gray-50 p-3 text-sm text-gray-700">
          Amount: <span className="font-semibold">{formatMoney(parcel.cost)}</span> (the
          parcel&apos;s shipping cost)
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Customer name"
          name="customerName"
          autoComplete="off"
          maxLength={200}
          value={values.customerName}
          onChange={(e) => setValues((v) => ({ ...v, customerName: e.target.value }))}
          errors={errors?.customerName}
        />
        <Field
          label="Customer email"
          name="customerEmail"
          type="email"
          autoComplete="off"
          maxLength={254}
          value={values.customerEmail}
          onChange={(e) => setValues((v) => ({ ...v, customerEmail: e.target.value }))}
          errors={errors?.customerEmail}
        />
        <SelectField
          label="Payment method"
          name="paymentMethod"
          value={values.paymentMethod}
          onChange={(e) =>
            setValues((v) => ({ ...v, paymentMethod: asPaymentMethod(e.target.value) }))
          }
          errors={errors?.paymentMethod}
        >
          {PAYMENT_METHODS.map((method) => (
            <option key={method} value={method}>
              {method}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Format"
          name="format"
          value={values.format}
          onChange={(e) => setValues((v) => ({ ...v, format: asFormat(e.target.value) }))}
          errors={errors?.format}
        >
          {RECEIPT_FORMATS.map((format) => (
            <option key={format} value={format}>
              {FORMAT_LABELS[format]}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="text-xs text-gray-500">Left empty, the customer is the parcel&apos;s sender.</p>
      <div className="flex justify-end gap-2">
        <button type="submit" className="btn-primary" disabled={generating}>
          {generating ? (
            <>
              <Spinner /> Generating...
            </>
          ) : (
            'Generate Receipt'
          )}
        </button>
      </div>
    </Form>
  );
}
