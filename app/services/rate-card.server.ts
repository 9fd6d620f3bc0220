import { getRateCard, saveRateCard } from '~/models/rate-card.server';
import type { RateCard } from '~/schemas/rate-card';
import { auditRecord, type Actor } from './audit.server';

/** The rate card's one change: the whole card saved (Settings → Prices, PUT /api/rates), audited. */
export async function updateRateCard(card: RateCard, actor?: Actor) {
  const { before, after } = await saveRateCard(card);
  await auditRecord(actor, 'update', 'settings', {
    label: 'Prices',
    before: { id: 'rates', ...before },
    after: { id: 'rates', ...after },
  });
  return after;
}

export { getRateCard };
