import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as quotesAction } from '~/routes/api.quotes';
import { action as ratesAction, loader as ratesLoader } from '~/routes/api.rates';
import { action as parcelsAction } from '~/routes/api.parcels';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { Quote } from '~/models/quote.server';
import { DEFAULT_RATE_CARD } from '~/models/rate-card.server';
import { RateCardSchema } from '~/schemas/rate-card';
import { listAudit } from '~/models/audit.server';
import { formatMoney, fromMajor, percentOf, roundHalfAwayFromZero, toMajor } from '~/utils/money';
import { callRoute, uniqueAddress } from '../support/api';
import {
  createAccount,
  createAccountKey,
  createUser,
  sendParcelForm,
  type TestUser,
} from '../support/factories';

let admin: TestUser;

beforeAll(async () => {
  await connectDb();
  admin = await createUser('admin');
});

afterAll(async () => {
  await disconnectDb();
});

const parcel = {
  from: { country: 'US', postalCode: '97201' },
  to: { country: 'US', postalCode: '62701' },
  weight: 0.8,
  dimensions: { length: 20, width: 15, height: 10 },
};

async function quote(body: Record<string, unknown>, headers?: HeadersInit) {
  return callRoute(quotesAction, '/api/quotes', {
    body,
    headers,
    clientAddress: uniqueAddress(),
  });
}

async function quotes(body: Record<string, unknown>, headers?: HeadersInit) {
  const response = await quote(body, headers);
  expect(response.status).toBe(201);
  const answer = (await response.json()) as {
    quotes: {
      id: string;
      serviceType: string;
      amount: number;
      breakdown: { label: string; amount: number }[];
    }[];
  };
  return Object.fromEntries(answer.quotes.map((q) => [q.serviceType, q]));
}

async function putCard(card: unknown) {
  const response = await callRoute(ratesAction, '/api/rates', {
    method: 'PUT',
    headers: admin.auth,
    body: card,
  });
  expect(response.status).toBe(200);
  return (await response.json()).rateCard;
}

const recipient = {
  name: 'Ada Lovelace',
  address: '12 Analytical Way',
  postalCode: '62701',
  country: 'US',
};

describe('money', () => {
  it('rounds half away from zero on the minor unit, and writes amounts in the reader’s language', () => {
    expect([0.5, 1.5, 2.5, -0.5, -2.5, 2.4999].map(roundHalfAwayFromZero)).toEqual([
      1, 2, 3, -1, -3, 2,
    ]);
    expect(percentOf(999, 5)).toBe(50); // 49.95 → 50
    expect(percentOf(1010, 4.5)).toBe(45); // 45.45 → 45
    expect(percentOf(1, 50)).toBe(1); // half a cent → a cent
    expect(fromMajor('9.99', 'USD')).toBe(999);
    expect(fromMajor('9.999', 'USD')).toBeNull();
    expect(fromMajor('1500', 'JPY')).toBe(1500);
    expect(toMajor({ amount: 2599, currency: 'USD' })).toBe(25.99);
    expect(formatMoney({ amount: 999, currency: 'USD' }, 'en')).toBe('$9.99');
    expect(formatMoney({ amount: 123456, currency: 'EUR' }, 'de')).toBe('1.234,56\u00a0€');
  });
});

describe('the rate card and quotes', () => {
  it('refuses a zone code or an account given twice, at the repeat', () => {
    const accountId = 'a'.repeat(24);
    const result = RateCardSchema.safeParse({
      ...DEFAULT_RATE_CARD,
      zones: [...DEFAULT_RATE_CARD.zones, DEFAULT_RATE_CARD.zones[0]],
      accountDiscounts: [
        { accountId, discountPercent: 5 },
        { accountId, discountPercent: 10 },
      ],
    });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      [`zones.${DEFAULT_RATE_CARD.zones.length}.code`, 'Zone codes are unique'],
      ['accountDiscounts.1.accountId', 'One discount per account'],
    ]);
  });

  it('prices a small parcel at the plans, heavier and bulkier parcels higher, and stores each quote', async () => {
    const small = await quotes(parcel);
    expect(Object.keys(small).sort()).toEqual(['Express', 'Overnight', 'Premium', 'Standard']);
    expect(small.Standard!.amount).toBe(999);
    expect(small.Premium!.amount).toBe(1999);
    expect(small.Standard!.breakdown).toEqual([
      { label: 'Standard, up to 1 kg, United States', amount: 999 },
    ]);
    const heavy = await quotes({ ...parcel, weight: 4, serviceType: 'Standard' });
    expect(Object.keys(heavy)).toEqual(['Standard']);
    expect(heavy.Standard!.amount).toBe(1499);
    // 40 × 30 × 30 cm is 7.2 kg by volume.
    const bulky = await quotes({ ...parcel, dimensions: { length: 40, width: 30, height: 30 } });
    expect(bulky.Standard!.amount).toBe(2299);
    expect(await Quote.countDocuments()).toBe(4 + 1 + 4);
  });

  it('answers a postcode it does not serve as such, naming the field, and an unknown field as a 400', async () => {
    const refused = await quote({ ...parcel, to: { country: 'JP', postalCode: '100-0001' } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: 'destination_not_served',
      details: { 'to.postalCode': [expect.any(String)] },
    });
    const unknown = await quote({ ...parcel, colour: 'red' });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).details).toHaveProperty('colour');
    const tooHeavy = await quote({ ...parcel, weight: 31, serviceType: 'Standard' });
    expect(await tooHeavy.json()).toMatchObject({ code: 'service_not_offered' });
  });

  it('reads the card as PUT takes it back, and a changed card prices new quotes, never a booked parcel', async () => {
    const read = await callRoute(ratesLoader, '/api/rates', { headers: admin.auth });
    const { rateCard } = await read.json();
    expect(rateCard.updatedAt).toBeNull();
    const same = await putCard(rateCard);
    expect({ ...same, updatedAt: null }).toEqual(rateCard);

    const [booked] = Object.values(await quotes({ ...parcel, serviceType: 'Standard' }));
    const created = await callRoute(parcelsAction, '/api/parcels', {
      headers: admin.auth,
      body: { quoteId: booked!.id, recipient, weight: 9 },
    });
    expect(created.status).toBe(201);
    const { parcel: made } = await created.json();
    expect(made).toMatchObject({
      price: { amount: 999, currency: 'USD' },
      cost: 9.99,
      serviceType: 'Standard',
      weight: 0.8,
    });

    // Fuel 4.5 % and a remote surcharge: (999 + 1500) × 4.5 % = 112.455 → 112.
    await putCard({ ...DEFAULT_RATE_CARD, fuelSurchargePercent: 4.5 });
    const remote = await quotes({
      ...parcel,
      to: { country: 'US', postalCode: '99501' },
      serviceType: 'Standard',
    });
    expect(remote.Standard!.breakdown).toEqual([
      { label: 'Standard, up to 1 kg, United States', amount: 999 },
      { label: 'Remote area surcharge', amount: 1500 },
      { label: 'Fuel surcharge (4.5%)', amount: 112 },
    ]);
    expect(remote.Standard!.amount).toBe(2611);
    const audited = await listAudit({ entity: 'settings', page: 1, limit: 10 });
    expect(JSON.stringify(audited)).toContain('fuelSurchargePercent');

    await putCard({
      ...DEFAULT_RATE_CARD,
      prices: DEFAULT_RATE_CARD.prices.map((p) => ({ ...p, priceAmount: p.priceAmount * 2 })),
    });
    expect((await quotes({ ...parcel, serviceType: 'Standard' })).Standard!.amount).toBe(1998);
    const again = await callRoute(ratesLoader, '/api/rates', { headers: admin.auth });
    expect((await again.json()).rateCard.prices[0].priceAmount).toBeGreaterThan(999);
    const { Parcel } = await import('~/models/parcel.server');
    expect((await Parcel.findById(made.id).lean())?.price).toEqual({
      amount: 999,
      currency: 'USD',
    });
    await putCard(DEFAULT_RATE_CARD);
  });

  it('books a quote once (409 quote_used) and refuses an expired one with a fresh price', async () => {
    const { Standard: q } = await quotes({ ...parcel, serviceType: 'Standard' });
    const book = () =>
      callRoute(parcelsAction, '/api/parcels', {
        headers: admin.auth,
        body: { quoteId: q!.id, recipient },
      });
    expect((await book()).status).toBe(201);
    const second = await book();
    expect(second.status).toBe(409);
    expect((await second.json()).code).toBe('quote_used');

    const { Express: old } = await quotes({ ...parcel, serviceType: 'Express' });
    await Quote.updateOne({ _id: old!.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await callRoute(parcelsAction, '/api/parcels', {
      headers: admin.auth,
      body: { quoteId: old!.id, recipient },
    });
    expect(expired.status).toBe(409);
    const body = await expired.json();
    expect(body).toMatchObject({
      code: 'quote_expired',
      quote: { serviceType: 'Express', amount: 1499 },
    });
    expect(body.quote.id).not.toBe(old!.id);

    const elsewhere = await quotes({ ...parcel, serviceType: 'Standard' });
    const wrongPostcode = await callRoute(parcelsAction, '/api/parcels', {
      headers: admin.auth,
      body: { quoteId: elsewhere.Standard!.id, recipient: { ...recipient, postalCode: '99501' } },
    });
    expect(wrongPostcode.status).toBe(400);
    expect((await wrongPostcode.json()).details).toHaveProperty(['recipient.postalCode']);
  });

  it('prices an account’s key by its discount, books on account, and keeps its quotes to itself', async () => {
    const account = await createAccount();
    const { auth } = await createAccountKey(account, admin);
    await putCard({
      ...DEFAULT_RATE_CARD,
      accountDiscounts: [{ accountId: account.id, discountPercent: 10 }],
    });
    const { Standard: mine } = await quotes({ ...parcel, serviceType: 'Standard' }, auth);
    // 999 − 10 % (99.9 → 100).
    expect(mine!.amount).toBe(899);
    expect(mine!.breakdown.at(-1)).toEqual({ label: 'Account discount (10%)', amount: -100 });
    expect((await quotes({ ...parcel, serviceType: 'Standard' })).Standard!.amount).toBe(999);

    const { Standard: publicQuote } = await quotes({ ...parcel, serviceType: 'Standard' });
    const notMine = await callRoute(parcelsAction, '/api/parcels', {
      headers: auth,
      body: { quoteId: publicQuote!.id, recipient },
    });
    expect(notMine.status).toBe(400);
    expect((await notMine.json()).code).toBe('quote_not_found');

    const created = await callRoute(parcelsAction, '/api/parcels', {
      headers: auth,
      body: { quoteId: mine!.id, recipient },
    });
    expect(created.status).toBe(201);
    expect((await created.json()).parcel).toMatchObject({
      price: { amount: 899, currency: 'USD' },
      cost: 8.99,
      paymentMethod: 'account',
      accountId: account.id,
    });
    await putCard(DEFAULT_RATE_CARD);
  });
});

describe('Settings → Prices', () => {
  /** The page's fields as the form posts them. */
  function posted(values: Record<string, unknown>, prefix = '', into = new URLSearchParams()) {
    for (const [key, value] of Object.entries(values)) {
      const name = prefix ? (/^\d+$/.test(key) ? `${prefix}[${key}]` : `${prefix}.${key}`) : key;
      if (value && typeof value === 'object') posted(value as Record<string, unknown>, name, into);
      else into.set(name, String(value));
    }
    return into;
  }

  it('shows the card in major units and saves it back without JavaScript, refusing a bad row', async () => {
    const { loader, action } = await import('~/routes/dashboard.settings.prices');
    const page = await callRoute(loader, '/dashboard/settings/prices', { cookie: admin.cookie });
    const { values } = await page.json();
    expect(values.prices[0]).toEqual({
      zone: 'domestic',
      serviceType: 'Standard',
      maxWeightKg: '1',
      price: '9.99',
    });

    const form = posted({
      ...values,
      fuelSurchargePercent: '2',
      prices: [...values.prices, { zone: '', serviceType: '', maxWeightKg: '', price: '' }],
    });
    const saved = await callRoute(action, '/dashboard/settings/prices', {
      cookie: admin.cookie,
      body: form,
    });
    expect(saved.status).toBe(302);
    const read = await callRoute(ratesLoader, '/api/rates', { headers: admin.auth });
    const { rateCard } = await read.json();
    expect(rateCard.fuelSurchargePercent).toBe(2);
    expect({ ...rateCard, fuelSurchargePercent: 0, updatedAt: null }).toEqual({
      ...DEFAULT_RATE_CARD,
      updatedAt: null,
    });

    const bad = posted({
      ...values,
      prices: [{ ...values.prices[0], price: '9.999' }, ...values.prices.slice(1)],
    });
    const refused = await callRoute(action, '/dashboard/settings/prices', {
      cookie: admin.cookie,
      body: bad,
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toHaveProperty(['prices[0].priceAmount']);
    await putCard(DEFAULT_RATE_CARD);
  });
});

describe('the public /quote page', () => {
  it('prices each service from its GET form, and says when a postcode is not served', async () => {
    const { loader } = await import('~/routes/_public.quote');
    const page = async (query: string) => {
      const response = await callRoute(loader, `/quote?${query}`, {
        clientAddress: uniqueAddress(),
      });
      return (await response.json()).pricer;
    };
    const empty = await page('');
    expect(empty).toMatchObject({ prices: null, problem: null, values: { fromCountry: 'US' } });
    const form =
      'fromCountry=US&fromPostalCode=97201&toCountry=us&toPostalCode=62701&weight=0.5&length=20&width=15&height=10';
    const priced = await page(form);
    expect(
      priced.prices.map((p: { serviceType: string; amount: number }) => [p.serviceType, p.amount]),
    ).toEqual([
      ['Standard', 999],
      ['Express', 1499],
      ['Premium', 1999],
      ['Overnight', 2499],
    ]);
    expect(await page(form.replace('toCountry=us', 'toCountry=JP'))).toMatchObject({
      prices: null,
      problem: 'not-served',
      invalid: ['toPostalCode'],
    });
    expect(await page(form.replace('weight=0.5', 'weight=heavy'))).toMatchObject({
      prices: null,
      invalid: ['weight'],
    });
  });
});

describe('the portal’s Send a parcel', () => {
  it('prices the parcel from the pickup address, then books the chosen service at its price, once', async () => {
    const { loader, action } = await import('~/routes/account.send');
    const { User } = await import('~/models/user.server');
    const account = await createAccount();
    const shipper = await createUser('shipper' as never);
    await User.updateOne({ _id: shipper.user.id }, { $set: { accountId: account.id } });
    const page = await callRoute(loader, '/account/send', { cookie: shipper.cookie });
    const { defaults } = await page.json();
    expect(defaults).toMatchObject({ senderPostalCode: '97201', senderCountry: 'US' });

    const form = { ...sendParcelForm(defaults), reference: 'ORDER-1042' };
    const priced = await callRoute(action, '/account/send', {
      cookie: shipper.cookie,
      form: { ...form, intent: 'price' },
    });
    expect(priced.status).toBe(200);
    const { quotes: offered } = await priced.json();
    const premium = offered.find((q: { serviceType: string }) => q.serviceType === 'Premium');
    expect(premium.amount).toBe(1999);

    const booking = { ...form, intent: 'book', quoteId: premium.id };
    const booked = await callRoute(action, '/account/send', {
      cookie: shipper.cookie,
      form: booking,
    });
    expect(booked.status).toBe(302);
    const parcelId = booked.headers.get('Location')!.split('/').pop()!;
    const { Parcel } = await import('~/models/parcel.server');
    expect(await Parcel.findById(parcelId).lean()).toMatchObject({
      price: { amount: 1999, currency: 'USD' },
      cost: 19.99,
      serviceType: 'Premium',
      reference: 'ORDER-1042',
      paymentMethod: 'account',
      sender: { postalCode: '97201' },
    });
    const again = await callRoute(action, '/account/send', {
      cookie: shipper.cookie,
      form: booking,
    });
    expect(again.status).toBe(409);
  });
});
