import { RunUpdateSchema } from '~/schemas/run';
import { EXAMPLE_IDS } from '~/schemas/api-examples';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { getRun, updateRunStops } from '~/services/runs.server';

const run = apiRecord('run', { item: 'Run' });

export const { loader, action } = apiRoute({
  GET: run.get('viewer', getRun, {
    summary: 'One courier’s run',
    description:
      'One run with its stops in order (parcels to deliver and pickups to make, by `kind`); once started, each stop’s expected arrival and, once done, its outcome.',
  }),
  PUT: run.update(
    'staff',
    RunUpdateSchema,
    (id, input, actor) => updateRunStops(id, input, actor),
    {
      summary: 'Reorder or change a planned run’s stops',
      description:
        'Sets a planned run’s stops (staff): `stops` (or both `parcelIds` and `pickupIds`) gives every stop in order; `parcelIds` alone sets the deliveries in that order and keeps the pickups in their places, `pickupIds` alone the reverse. A stop left out comes off the run, one on another planned run moves here. 409 with code run_started once it has started.',
      bodyExample: { parcelIds: [EXAMPLE_IDS.parcel], pickupIds: [EXAMPLE_IDS.pickup] },
      errors: [404, 409],
    },
  ),
});
