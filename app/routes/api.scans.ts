import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { ScanSchema } from '~/schemas/scan';
import { ApiError, handleApi, methodNotAllowed, readJsonBody } from '~/lib/api.server';
import { requireApiRole } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { notFoundCode, TRACKING_NOT_FOUND } from '~/services/public-tracking.server';
import { recordScan } from '~/services/scans.server';
import { mistypedHint } from '~/utils/tracking-number';

export async function loader() {
  return methodNotAllowed(['POST']);
}

/**
 * POST /api/scans {trackingNumber, status, depotId | location, timeZone?, timestamp?, reason?,
 * note?, nextAttemptDate?} → 201 {event, parcel}; the same scan again within minutes → 200 with
 * the first one and `repeated: true`. 404 for an unknown number; 400 with code
 * tracking_number_mistyped for one that fails its check digit. Couriers and up.
 */
export async function action({ request, context }: ActionFunctionArgs | LoaderFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  return handleApi(async () => {
    const user = await requireApiRole(request, 'courier');
    return idempotent(request, async () => {
      const input = await readJsonBody(request, ScanSchema);
      const outcome = await recordScan(input, { user, context, via: 'api' });
      if (outcome.kind === 'not-found') {
        throw new ApiError(
          outcome.mistyped ? 400 : 404,
          TRACKING_NOT_FOUND,
          outcome.mistyped ? { trackingNumber: [mistypedHint(outcome.trackingNumber)] } : undefined,
          undefined,
          notFoundCode(outcome),
        );
      }
      const { event, parcel } = outcome;
      return outcome.kind === 'repeated'
        ? json({ event, parcel, repeated: true })
        : json({ event, parcel }, { status: 201 });
    });
  });
}
