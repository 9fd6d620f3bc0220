import { RecordListTab } from '~/components/dashboard/record-list';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { ReceiptItem } from '~/components/receipts/receipt-item';
import { getNewestReceipt, getReceipt, listReceipts } from '~/models/receipt.server';
import { RECEIPTS_PAGE_SIZE } from '~/schemas/constants';
import { requireOfficeUser, requireRole } from '~/http/auth.server';
import { parseReceiptAction } from '~/http/receipt-pages.server';
import { publicCompanyInfo } from '~/lib/env.server';
import { createToastHeaders, redirectWithToast } from '~/lib/flash.server';
import { queueReceiptEmail } from '~/services/receipt-email.server';
import { renderReceiptHtml, sampleReceipt } from '~/services/receipt-render.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { listPageUrl, pageFrom } from '~/utils/list-page';

const LIST_PATH = '/dashboard/receipts';

const listUrl = listPageUrl(LIST_PATH);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOfficeUser(request);
  const page = pageFrom(new URL(request.url));
  const [{ receipts, pagination }, newest] = await Promise.all([
    listReceipts({ page, limit: RECEIPTS_PAGE_SIZE }),
    getNewestReceipt(),
  ]);
  const preview = newest
    ? {
        label: `Newest receipt, ${newest.receiptNumber}`,
        html: renderReceiptHtml(newest, publicCompanyInfo()),
      }
    : {
        label: 'Sample receipt (no receipts generated yet)',
        html: renderReceiptHtml(sampleReceipt(), publicCompanyInfo()),
      };
  return json({ receipts, pagination, preview });
}

export async function action({ request }: ActionFunctionArgs) {
  // Telling of a download or a print is open to every office role; e-mailing needs staff (below).
  const user = await requireOfficeUser(request);
  const back = listUrl(pageFrom(new URL(request.url)));
  const submission = parseReceiptAction(await readFormData(request));
  if (submission.status !== 'success') return invalidForm(submission);
  const { intent, receiptId } = submission.value;
  if (intent !== 'downloaded' && intent !== 'printed') requireRole(user, 'staff', 'page');
  const receipt = await getReceipt(receiptId);

  // Downloads and print tabs don't navigate: these answer the list's fetcher with a toast.
  if (intent === 'downloaded' || intent === 'printed') {
    if (!receipt) {
      return invalidForm(submission, {
        formErrors: ['This receipt no longer exists.'],
        status: 404,
      });
    }
    const toast =
      intent === 'downloaded'
        ? {
            type: 'success' as const,
            title: 'Receipt downloaded',
            description: receipt.receiptNumber,
          }
        : {
            type: 'info' as const,
            title: 'Print receipt',
            description: `${receipt.receiptNumber} opened for printing.`,
          };
    return json(submission.reply(), { headers: await createToastHeaders(request, toast) });
  }

  if (!receipt) {
    return redirectWithToast(request, back, {
      type: 'error',
      title: 'Failed to email receipt',
      description: 'This receipt no longer exists.',
    });
  }
  try {
    await queueReceiptEmail(receipt);
  } catch (error) {
    const message =
      error instanceof Error && error.message ? error.message : 'Please try again later.';
    return redirectWithToast(request, back, {
      type: 'error',
      title: 'Failed to email receipt',
      description: message,
    });
  }
  return redirectWithToast(request, back, {
    type: 'success',
    title: 'Receipt emailed',
    description: `${receipt.receiptNumber} queued for ${receipt.customerEmail}.`,
  });
}

export const meta: MetaFunction = () => [{ title: 'Receipts · Management dashboard' }];

export default function ReceiptsTab() {
  const { receipts, pagination, preview } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const formAction = listUrl(pagination.currentPage);

  return (
    <RecordListTab
      noun="receipt"
      pagination={pagination}
      columns="xl:grid-cols-[minmax(0,1fr)_minmax(0,28rem)] xl:items-start"
      aside={<ReceiptPreview {...preview} />}
    >
      {receipts.map((receipt) => (
        <ReceiptItem
          key={receipt.id}
          receipt={receipt}
          formAction={formAction}
          lastResult={lastResult?.initialValue?.receiptId === receipt.id ? lastResult : null}
        />
      ))}
    </RecordListTab>
  );
}

/** The newest receipt (or a sample) as the template draws it. */
function ReceiptPreview({ label, html }: { label: string; html: string }) {
  return (
    <section aria-labelledby="receipt-preview-heading" className="card p-4">
      <h2 id="receipt-preview-heading" className="text-lg font-semibold">
        Receipt template preview
      </h2>
      <p className="mb-3 text-sm text-gray-600">{label}</p>
      <iframe
        title="Receipt template preview"
        srcDoc={html}
        sandbox=""
        className="h-[36rem] w-full rounded-md border border-gray-200 bg-white"
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
