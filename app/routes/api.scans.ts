import { json } from '@remix-run/node';
import { ScanSchema } from '~/schemas/scan';
import { EXAMPLE_IDS, EXAMPLE_TRACKING_NUMBER } from '~/schemas/api-examples';
import { ApiError, apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { notFoundCode, TRACKING_NOT_FOUND } from '~/services/public-tracking.server';
import { recordScan, REPEAT_WINDOW_MS } from '~/services/scans.server';
import { mistypedHint } from '~/utils/tracking-number';

const repeatWindow = `${REPEAT_WINDOW_MS / 60_000} minutes`;

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'courier',
      idempotent: true,
      body: ScanSchema,
      summary: 'Record a scan by tracking number at a depot or a place (couriers and up)',
      description: `Records a scan by tracking number at a depot (\`depotId\`: its name and zone) or a \`location\`, for couriers and up. A Failed Delivery needs a reason (\`other\` also a note). The same scan again within ${repeatWindow} records nothing and answers the first (200, \`repeated: true\`). A scan that moves a parcel back (Out for Delivery → In Transit) is recorded and says so in \`regressedFrom\`.

A card booking whose payment Stripe has not confirmed takes no scan: 409 with code payment_pending (it is not released for pickup). A delivered or returned parcel takes no scan: 409 with code parcel_closed and what ended its journey; staff reopen it with POST /api/parcels/{id}/reopen. A Delivered scan records the proof of delivery of one stop (\`destination\`, default the first without one) naming who received it (\`receivedBy\`) where Settings › Depots allows deliveries by scan; otherwise it answers 409 with code proof_of_delivery_required and the stop, for POST /api/parcels/{id}/proof-of-delivery. A multi-stop parcel is Delivered with its last stop. An Out for Delivery scan of a parcel whose recipient asked for a later day or to hold it at the depot, or that goes to another town than the depot’s \`city\`, answers 409 with code scan_needs_confirmation and its \`warnings\`; sent again with \`override: true\` it is recorded and the event keeps the warnings (\`override\`).

404 with code tracking_number_not_found for an unknown number; 400 with code tracking_number_mistyped for one that also fails its check digit.`,
      bodyExample: {
        trackingNumber: EXAMPLE_TRACKING_NUMBER,
        status: 'Arrived at Facility',
        depotId: EXAMPLE_IDS.depot,
      },
      responses: { 201: 'ScanResult', 200: 'ScanResult' },
      errors: [404],
      errorAnswers: { 409: 'ScanRefused' },
    },
    async ({ body, actor }) => {
      const outcome = await recordScan(body, actor);
      switch (outcome.kind) {
        case 'not-found':
          throw new ApiError(
            outcome.mistyped ? 400 : 404,
            TRACKING_NOT_FOUND,
            outcome.mistyped
              ? { trackingNumber: [mistypedHint(outcome.trackingNumber)] }
              : undefined,
            { code: notFoundCode(outcome) },
          );
        case 'closed':
          throw new ApiError(409, outcome.message, undefined, {
            code: 'parcel_closed',
            extra: { status: outcome.parcel.status },
          });
        case 'needs-proof':
          throw new ApiError(
            409,
            `${outcome.message} Record it with POST /api/parcels/${outcome.parcel.id}/proof-of-delivery.`,
            undefined,
            { code: 'proof_of_delivery_required', extra: { destination: outcome.destination } },
          );
        case 'needs-confirmation':
          throw new ApiError(
            409,
            `This Out for Delivery scan contradicts the delivery: ${outcome.warnings.join(' ')} Send override: true to record it anyway.`,
            undefined,
            { code: 'scan_needs_confirmation', extra: { warnings: outcome.warnings } },
          );
      }
      const { event, parcel } = outcome;
      if (outcome.kind === 'repeated') return json({ event, parcel, repeated: true });
      return json(
        {
          event,
          parcel,
          ...(outcome.regressedFrom ? { regressedFrom: outcome.regressedFrom } : {}),
          ...(outcome.proofOfDelivery ? { proofOfDelivery: outcome.proofOfDelivery } : {}),
        },
        { status: 201 },
      );
    },
  ),
});
