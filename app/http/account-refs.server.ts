import { scopeOf } from '~/lib/tenancy.server';
import type { IdParam } from './api-operation.server';
import { ApiError, requireObjectId } from './api.server';

/**
 * A URL parameter naming a record a shipper account may have of its own (a webhook endpoint):
 * a 400 when it is not an id, and for an account's request a 404 unless the record is the
 * account's, so another's is never seen to exist. Staff reach every record.
 */
export function accountRecordRef(
  what: string,
  ownedBy: (id: string, accountId: string) => Promise<boolean>,
): IdParam {
  return async (value, _name, actor) => {
    const id = requireObjectId(value, `${what} id`);
    const scope = scopeOf(actor);
    if (scope && !(await ownedBy(id, scope.accountId)))
      throw new ApiError(404, `${what[0]!.toUpperCase()}${what.slice(1)} not found`);
    return id;
  };
}
