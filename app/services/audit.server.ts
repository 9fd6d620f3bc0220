import { recordAudit, recordAuditMany, type AuditInput } from '~/models/audit.server';
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

/** Records many changes by the same user at once (a CSV import); failures are logged, as above. */
export async function auditMany(
  who: { user: PublicUser; context: unknown; via?: 'page' | 'api' },
  entries: Array<Omit<AuditInput, 'actor' | 'address' | 'via'>>,
) {
  const actor = { id: who.user.id, username: who.user.username, role: who.user.role };
  const address = clientAddress(who.context);
  try {
    await recordAuditMany(
      entries.map((entry) => ({ ...entry, actor, address, via: who.via ?? 'page' })),
    );
  } catch (error) {
    console.error('Could not record the audit entries:', error);
  }
}
