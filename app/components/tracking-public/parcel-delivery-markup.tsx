import { jsonLdText } from '~/utils/json-ld';

/**
 * Each parcel looked up as schema.org ParcelDelivery data (lib/parcel-delivery-data.server.ts):
 * data blocks for search engines and mail programs, never run, so the page still ships no
 * script to run.
 */
export function ParcelDeliveryMarkup({ deliveries }: { deliveries: unknown[] }) {
  return (
    <>
      {deliveries.map((data, index) => (
        <script
          key={index}
          type="application/ld+json"
          dangerouslySetInnerHTML={{ __html: jsonLdText(data) }}
        />
      ))}
    </>
  );
}
