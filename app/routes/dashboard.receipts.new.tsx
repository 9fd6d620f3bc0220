import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, type SerializeFrom } from '@remix-run/node';
import {
  ApplyChoiceButton,
  ParcelPickerRoute,
  type PickerDialog,
  type PickerFieldsProps,
} from '~/components/parcels/parcel-picker-dialog';
import { InputsFromTable, type InputSpec } from '~/components/ui/input-table';

import {
  formatMoney,
  PAYMENT_METHODS,
  RECEIPT_FORMATS,
  RECEIPT_PARCEL_CHOICES,
} from '~/schemas/constants';
import {
  DEFAULT_PAYMENT_METHOD,
  DEFAULT_RECEIPT_FORMAT,
  ReceiptGenerateFormSchema,
  type PaymentMethod,
  type ReceiptFormat,
} from '~/schemas/receipt';
import { requireUserWithRole } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { loadParcelChoices } from '~/http/parcel-pages.server';
import { generateReceipt } from '~/services/receipts.server';
import { SelectFor } from '~/components/ui/conform-fields';

const LIST_PATH = '/dashboard/receipts';
const NEW_PATH = `${LIST_PATH}/new`;

const GENERATE_RECEIPT: PickerDialog<SerializeFrom<typeof loader>> = {
  title: 'Generate Receipt',
  description: "Create a receipt for a parcel's shipping cost.",
  listPath: LIST_PATH,
  keep: ({ paymentMethod, format }) => ({ paymentMethod, format }),
  // A parcel applied through the URL starts the form afresh.
  restartOn: ({ parcelId, customerName, customerEmail }) => [parcelId, customerName, customerEmail],
  schema: ReceiptGenerateFormSchema,
  optionLabel: (p) => `${p.trackingNumber} — ${p.senderName || 'No sender name'}`,
  // Choosing a parcel makes its sender the customer.
  onChoose: (parcel, { form, fields }) => {
    if (!parcel) return;
    form.update({ name: fields.customerName.name, value: parcel.senderName });
    form.update({ name: fields.customerEmail.name, value: parcel.senderEmail });
  },
  submitLabel: 'Generate Receipt',
  pendingLabel: 'Generating...',
  Fields: GenerateReceiptFields,
};

const CUSTOMER_INPUTS: Array<InputSpec<'customerName' | 'customerEmail'>> = [
  { name: 'customerName', label: 'Customer name', maxLength: 200 },
  { name: 'customerEmail', label: 'Customer email', type: 'email', maxLength: 254 },
];

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
  await requireUserWithRole(request, 'staff');
  const params = new URL(request.url).searchParams;
  const { parcels, chosen, picker } = await loadParcelChoices(params, RECEIPT_PARCEL_CHOICES);
  // 'Use parcel details' (the no-JavaScript round trip) fills the customer from the parcel's sender.
  const values: FormValues = {
    parcelId: chosen?.id ?? '',
    customerName: chosen?.senderName ?? '',
    customerEmail: chosen?.senderEmail ?? '',
    paymentMethod: asPaymentMethod(params.get('paymentMethod')),
    format: asFormat(params.get('format')),
  };
  return json({ parcels, chosen, values, picker });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const submission = parseWithZod(await readFormData(request), {
    schema: ReceiptGenerateFormSchema,
  });
  if (submission.status !== 'success') return invalidForm(submission);
  const { parcelId, ...overrides } = submission.value;
  const receipt = await generateReceipt(parcelId, overrides, new Date(), { user, context });
  if (!receipt) {
    return invalidForm(submission, { fieldErrors: { parcelId: ['Parcel not found'] } });
  }
  return redirectWithToast(request, LIST_PATH, {
    type: 'success',
    title: 'Receipt generated',
    description: receipt.receiptNumber,
  });
}

export const meta: MetaFunction = () => [
  { title: `${GENERATE_RECEIPT.title} · Management dashboard` },
];

export default function GenerateReceiptDialog() {
  return <ParcelPickerRoute dialog={GENERATE_RECEIPT} />;
}

function GenerateReceiptFields({
  picked: { fields, hydrated, parcel },
}: PickerFieldsProps<SerializeFrom<typeof loader>>) {
  return (
    <>
      {hydrated ? null : (
        <ApplyChoiceButton
          action={NEW_PATH}
          label="Use parcel details"
          hint="Fills the customer from the chosen parcel's sender."
        />
      )}
      {parcel ? (
        <p className="rounded-md bg-gray-50 p-3 text-sm text-gray-700">
          Amount: <span className="font-semibold">{formatMoney(parcel.cost)}</span> (the
          parcel&apos;s shipping cost)
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <InputsFromTable inputs={CUSTOMER_INPUTS} of={fields} autoComplete="off" />
        <SelectFor label="Payment method" meta={fields.paymentMethod} options={PAYMENT_METHODS} />
        <SelectFor
          label="Format"
          meta={fields.format}
          options={RECEIPT_FORMATS.map((format) => ({
            value: format,
            label: FORMAT_LABELS[format],
          }))}
        />
      </div>
      <p className="text-xs text-gray-500">Left empty, the customer is the parcel&apos;s sender.</p>
    </>
  );
}
