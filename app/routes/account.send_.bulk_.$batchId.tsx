import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { trackingNumberColumn } from '~/components/account/parcel-column';
import { DataTable, ScrollRegion, type Column } from '~/components/ui/data-table';
import { bookedBatch } from '~/http/portal-pages.server';
import { formatMoney } from '~/utils/money';

/** The parcels one bulk booking booked, with their prices, and the PDF of all their labels. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { batch, parcels } = await bookedBatch(request, params.batchId);
  return json({
    batch,
    parcels: parcels.map((parcel) => ({
      id: parcel.id,
      trackingNumber: parcel.trackingNumber,
      recipientName: parcel.recipient.name,
      serviceType: parcel.serviceType,
      price: parcel.price,
      reference: parcel.reference ?? '',
    })),
  });
}

export const meta: MetaFunction = () => [{ title: 'Booked parcels · Your shipping account' }];

type Row = ReturnType<typeof useLoaderData<typeof loader>>['parcels'][number];

const COLUMNS: Column<Row>[] = [
  trackingNumberColumn(),
  { header: 'Recipient', cell: (p) => p.recipientName },
  { header: 'Service', cell: (p) => p.serviceType },
  { header: 'Reference', cell: (p) => p.reference },
  { header: 'Price', cell: (p) => (p.price ? formatMoney(p.price) : '—') },
];

export default function BookedBatchPage() {
  const { batch, parcels } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">
          Booked {parcels.length} parcel{parcels.length === 1 ? '' : 's'}
        </h1>
        <div className="flex gap-2">
          <a href={`/account/send/bulk/${batch.id}/labels.pdf`} className="btn-primary">
            Download labels (PDF)
          </a>
          <Link to="/account/send/bulk" className="btn-secondary">
            Book more
          </Link>
        </div>
      </div>
      <p className="text-sm text-gray-700">
        Total {formatMoney({ amount: batch.totalAmount, currency: batch.currency })}, on account.
        The labels are one PDF, 4 × 6 in, one label a page.
      </p>
      <ScrollRegion label="Booked parcels" className="card overflow-x-auto">
        <DataTable caption="Booked parcels" columns={COLUMNS} rows={parcels} rowKey={(p) => p.id} />
      </ScrollRegion>
    </div>
  );
}
