import { json } from '@remix-run/node';
import { ScanSchema } from '~/schemas/scan';
import { ApiError, apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { notFoundCode, TRACKING_NOT_FOUND } from '~/services/public-tracking.server';
import { recordScan } from '~/services/scans.server';
import { mistypedHint } from '~/utils/tracking-number';

export const { loader, action } = apiRoute({
  /**
   * POST /api/scans {trackingNumber, status, depotId | location, timeZone?, timestamp?, reason?,
   * note?, nextAttemptDate?, receivedBy?, destination?, override?} → 201 {event, parcel}; the same
   * scan again within minutes → 200 with the first one and `repeated: true`. 404 for an unknown
   * number; 400 with code tracking_number_mistyped for one that fails its check digit; 409 for a
   * delivered or returned parcel (parcel_closed), a Delivered scan the settings leave to the proof
   * form (proof_of_delivery_required), and an Out for Delivery scan that contradicts the delivery
   * (scan_needs_confirmation, with its `warnings`). Couriers and up.
   */
  POST: apiHandler(
    { role: 'courier', idempotent: true, body: ScanSchema },
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
