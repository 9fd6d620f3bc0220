import { recordAudit, type AuditInput } from '~/models/audit.server';
import type { PublicUser } from '~/models/user.server';
import { clientAddress } from './rate-limit.server';

/**
 * Records a change in the audit trail for the signed-in user of this request. A failure to record
 * is logged and does not undo the change the user already made.
 */
export async function audit(
  who: { user: PublicUser; context: unknown; via?: 'page' | 'api' },
  entry: Omit<AuditInput, 'actor' | 'address' | 'via'>,
) {
  try {
    await recordAudit({
      ...entry,
      actor: { id: who.user.id, username: who.user.username, role: who.user.role },
      address: clientAddress(who.context),
      via: who.via ?? 'page',
    });
  } catch (error) {
    console.error('Could not record an audit entry:', error);
  }
}
