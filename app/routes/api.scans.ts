import { json } from '@remix-run/node';
import { ScanSchema } from '~/schemas/scan';
import { ApiError, apiRoute } from '~/lib/api.server';
import { apiHandler } from '~/services/api-handler.server';
import { notFoundCode, TRACKING_NOT_FOUND } from '~/services/public-tracking.server';
import { recordScan } from '~/services/scans.server';
import { mistypedHint } from '~/utils/tracking-number';

export const { loader, action } = apiRoute({
  /**
   * POST /api/scans {trackingNumber, status, depotId | location, timeZone?, timestamp?, reason?,
   * note?, nextAttemptDate?} → 201 {event, parcel}; the same scan again within minutes → 200 with
   * the first one and `repeated: true`. 404 for an unknown number; 400 with code
   * tracking_number_mistyped for one that fails its check digit. Couriers and up.
   */
  POST: apiHandler(
    { role: 'courier', idempotent: true, body: ScanSchema },
    async ({ body, actor }) => {
      const outcome = await recordScan(body, actor);
      if (outcome.kind === 'not-found') {
        throw new ApiError(
          outcome.mistyped ? 400 : 404,
          TRACKING_NOT_FOUND,
          outcome.mistyped ? { trackingNumber: [mistypedHint(outcome.trackingNumber)] } : undefined,
          { code: notFoundCode(outcome) },
        );
      }
      const { event, parcel } = outcome;
      return outcome.kind === 'repeated'
        ? json({ event, parcel, repeated: true })
        : json({ event, parcel }, { status: 201 });
    },
  ),
});
