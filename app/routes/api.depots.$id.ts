import { DepotSchema } from '~/schemas/depot';
import { DEPOT_EXAMPLE } from '~/schemas/api-examples';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { deleted } from '~/http/api-operation.server';
import { deleteDepot, getDepot, updateDepot } from '~/services/depots.server';

const depot = apiRecord('depot', { item: 'Depot' });

/** Events recorded at a depot keep its name and zone whatever becomes of it. */
export const { loader, action } = apiRoute({
  GET: depot.get('viewer', getDepot, {
    summary: 'One depot',
    description: 'One depot, with its address and IANA time zone; every role reads it.',
  }),
  PUT: depot.update('admin', DepotSchema, (id, input, actor) => updateDepot(id, input, actor), {
    summary: 'Change a depot; events recorded there keep the name and zone they were given',
    description:
      'Changes a depot (admin). Events recorded there keep the name and zone they were given. 409 for a name already taken.',
    bodyExample: DEPOT_EXAMPLE,
    errors: [404, 409],
  }),
  DELETE: depot.change('admin', deleteDepot, {
    summary: 'Delete a depot',
    description: 'Deletes a depot (admin); events recorded there keep its name and zone.',
    responses: { 200: deleted('depot', 'Depot') },
    answer: (removed) => ({ success: true, message: 'Depot deleted', depot: removed }),
  }),
});
