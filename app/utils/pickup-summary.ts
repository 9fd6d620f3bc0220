/** A pickup in a few words, as staff and couriers read it: "09:00–12:00 · 3 parcels". */
export function pickupSummary(pickup: {
  window: { from: string; until: string };
  parcelCount: number;
}): string {
  const parcels = `${pickup.parcelCount} parcel${pickup.parcelCount === 1 ? '' : 's'}`;
  return `${pickup.window.from}–${pickup.window.until} · ${parcels}`;
}
