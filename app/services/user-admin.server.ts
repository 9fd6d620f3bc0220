import { ApiError } from './api.server';
import { UserConflictError } from '~/models/user.server';

/** A UserConflictError (taken username, last admin) as the API's 409. */
export async function asApiConflict<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof UserConflictError) throw new ApiError(409, error.message);
    throw error;
  }
}
