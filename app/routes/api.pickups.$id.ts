import { apiRoute, requireObjectId, ApiError } from '~/http/api.server';
import { apiRecord, type IdParam } from '~/http/api-handler.server';
import { forAccounts } from '~/http/api-operation.server';
import { scopeOf } from '~/lib/tenancy.server';
import { isAccountPickup } from '~/models/pickup.server';
import { cancelPickup, getPickup } from '~/services/pickups.server';

/** A pickup's id: for an account, one of its own of its mode (another's is 404). */
const pickupRef: IdParam = async (value, _name, actor) => {
  const id = requireObjectId(value, 'pickup id');
  const scope = scopeOf(actor);
  if (scope && !(await isAccountPickup(id, scope))) throw new ApiError(404, 'Pickup not found');
  return id;
};

const pickup = apiRecord('pickup', { item: 'Pickup', idLabel: pickupRef });

export const { loader, action } = apiRoute({
  GET: pickup.get(forAccounts('viewer'), getPickup, {
    summary: 'One pickup',
    description:
      'One pickup: its day and window, address, parcels and how many are in (`collectedCount`), and its status.',
  }),
  DELETE: pickup.change(forAccounts('staff'), (id, actor) => cancelPickup(id, actor), {
    summary: 'Cancel a pickup, until its day’s cut-off',
    description:
      'Cancels a scheduled pickup (its status becomes cancelled; it stays listed) and sends `pickup.cancelled`. After the cut-off of its day, or once cancelled or completed, 409 with code pickup_closed.',
    errors: [404, 409],
  }),
});
