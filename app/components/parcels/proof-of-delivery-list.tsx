import { Link } from '@remix-run/react';
import type { SerializedProof } from '~/models/proof-of-delivery.server';
import { proofFormHref } from '~/schemas/proof-of-delivery';
import { formatDateTime } from '~/utils/format';

type Stop = { name: string; address: string };

/**
 * The parcel's stops with their proof of delivery (who received it, when, the photos, the
 * signature and the PDF), or, for staff, the link that records one. Photos come from the API's
 * file route with the staff session; the public pages never link them.
 */
export function ProofOfDeliveryList({
  parcelId,
  stops,
  proofs,
  canRecord,
  search,
  timeZone,
}: {
  parcelId: string;
  stops: Stop[];
  proofs: SerializedProof[];
  canRecord: boolean;
  search: string;
  /** The company's zone, in which staff screens show times. */
  timeZone: string;
}) {
  return (
    <section aria-labelledby="proof-of-delivery-heading" className="space-y-2">
      <h3 id="proof-of-delivery-heading" className="font-semibold text-gray-900">
        Proof of delivery
      </h3>
      <ol className="space-y-2">
        {stops.map((stop, i) => {
          const proof = proofs.find((p) => p.destination === i);
          const label = stops.length > 1 ? `Stop ${i + 1}: ${stop.name || '—'}` : stop.name || '—';
          return (
            <li key={i} className="rounded-md border border-gray-200 p-3">
              <p className="font-medium">{label}</p>
              {proof ? (
                <div className="mt-2 space-y-2">
                  <dl className="grid gap-2 sm:grid-cols-3">
                    <div>
                      <dt className="text-xs font-semibold uppercase text-gray-500">Received by</dt>
                      <dd>{proof.receivedBy}</dd>
                    </div>
                    <div>
                      <dt className="text-xs font-semibold uppercase text-gray-500">Delivered</dt>
                      <dd>{formatDateTime(proof.deliveredAt, timeZone)}</dd>
                    </div>
                    <div>
                      <dt className="text-xs font-semibold uppercase text-gray-500">Signature</dt>
                      <dd>
                        {proof.signature ? (
                          <img
                            src={proof.signature.url}
                            alt={`Signature of ${proof.receivedBy}`}
                            className="h-12 rounded border border-gray-200 bg-white"
                          />
                        ) : proof.signatureName ? (
                          <span className="italic">{proof.signatureName} (typed)</span>
                        ) : (
                          'None'
                        )}
                      </dd>
                    </div>
                  </dl>
                  {proof.note ? <p className="text-gray-700">{proof.note}</p> : null}
                  {proof.photos.length ? (
                    <ul className="flex flex-wrap gap-2" aria-label="Photos">
                      {proof.photos.map((photo, n) => (
                        <li key={photo.id}>
                          <a href={photo.url} target="_blank" rel="noopener">
                            <img
                              src={photo.url}
                              alt={`Delivery photo ${n + 1}`}
                              width={96}
                              height={Math.round((96 * photo.height) / photo.width)}
                              className="h-24 w-24 rounded border border-gray-200 object-cover"
                            />
                          </a>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  <a
                    href={proof.pdfUrl}
                    target="_blank"
                    rel="noopener"
                    type="application/pdf"
                    className="text-sm font-medium text-brand-700 underline"
                  >
                    Proof of delivery (PDF)
                    <span className="sr-only">, opens in a new tab</span>
                  </a>
                </div>
              ) : canRecord ? (
                <Link to={proofFormHref(parcelId, i, search)} className="btn-secondary mt-2">
                  Record proof of delivery
                  {stops.length > 1 ? <span className="sr-only"> for stop {i + 1}</span> : null}
                </Link>
              ) : (
                <p className="text-gray-600">Not delivered yet.</p>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
