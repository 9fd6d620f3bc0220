import { setInboxHandled, type InboxDetail } from '~/models/inbox.server';
import type { InboxKind } from '~/schemas/inbox';
import { audit, type Actor } from './audit.server';

/** Staff mark what visitors sent handled, or not handled again; each change is audited. */
export async function markInboxItem(
  kind: InboxKind,
  id: string,
  handled: boolean,
  actor: Actor,
): Promise<InboxDetail | null> {
  const changed = await setInboxHandled(kind, id, handled, actor.user.username);
  if (!changed) return null;
  const { before, after } = changed;
  const state = (d: InboxDetail) => ({ handled: Boolean(d.handledAt), handledBy: d.handledBy });
  await audit(actor, {
    action: 'update',
    entity: kind === 'newsletter' ? 'subscription' : 'inquiry',
    entityId: after.id,
    label: after.email,
    before: state(before),
    after: state(after),
  });
  return after;
}
