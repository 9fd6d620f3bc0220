import { describe, expect, it } from 'vitest';
import { deliveryPerformancePipeline } from '~/models/parcel-reports.server';
import { Parcel } from '~/models/parcel.server';

// The delivery performance report reads only the parcels of its period: its first stage is a
// $match whose every branch puts the period on the first field of an index the model declares,
// over the delivery facts the parcels' writes keep (not over their events).
describe('the delivery performance report', () => {
  it('starts with a $match on indexed date ranges, keeps the fields it needs, then groups', () => {
    const start = new Date('2030-01-01T00:00:00Z');
    const end = new Date('2030-01-31T00:00:00Z');
    const pipeline = deliveryPerformancePipeline({ start, end, groupBy: 'day' });
    const firstFields = Parcel.schema.indexes().map(([key]) => Object.keys(key)[0]);
    const match = (pipeline[0] as { $match: { $or: Record<string, unknown>[] } }).$match;
    const ranged = match.$or.map((branch) => {
      const [field, cond] = Object.entries(branch)[0]!;
      const within = (cond as { $elemMatch?: Record<string, unknown> }).$elemMatch;
      const [inner, range] = within ? Object.entries(within).find(([k]) => k !== 'status')! : [];
      return [within ? `${field}.${inner}` : field, range ?? cond];
    });
    expect(ranged).toEqual([
      ['deliveryFacts.delivered.at', { $gte: start, $lt: end }],
      ['deliveryFacts.failures.at', { $gte: start, $lt: end }],
    ]);
    for (const [field] of ranged) expect(firstFields).toContain(field);
    // It keeps only fields (no expression per parcel) and counts deliveries without unwinding.
    const project = (pipeline[1] as { $project: Record<string, unknown> }).$project;
    expect(Object.values(project).every((v) => v === 1)).toBe(true);
    const facets = (pipeline[2] as { $facet: Record<string, object[]> }).$facet;
    expect(facets.deliveries!.map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$group']);
  });
});
