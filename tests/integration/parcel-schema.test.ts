import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import {
  ParcelCreateFormSchema,
  ParcelCreateSchema,
  ParcelListQuerySchema,
  ParcelUpdateFormSchema,
  ParcelUpdateSchema,
} from '~/schemas/parcel';

function form(entries: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.append(k, v);
  return data;
}

/** What the create action gets from its form (or the field errors, which fail the test). */
function parseCreateForm(entries: Record<string, string>) {
  const submission = parseWithZod(form(entries), {
    schema: ParcelCreateFormSchema,
    disableAutoCoercion: true,
  });
  if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error));
  return submission.value;
}

const recipient = { 'recipient.name': 'Bob', 'recipient.address': '2 Target Ave' };

describe('the parcel form as conform reads it', () => {
  it('turns empty and unparseable numbers into 0 and keeps real ones', () => {
    const input = parseCreateForm({
      ...recipient,
      weight: 'abc',
      'dimensions.length': '',
      'dimensions.width': ' 12.5 ',
      'dimensions.height': 'x',
    });
    expect(input.weight).toBe(0);
    expect(input.dimensions).toEqual({ length: 0, width: 12.5, height: 0 });
    // The edit form sends every number, so an emptied one is 0 there too.
    const edited = parseWithZod(form({ ...recipient, weight: '', 'dimensions.length': '3' }), {
      schema: ParcelUpdateFormSchema,
      disableAutoCoercion: true,
    });
    expect(edited.status === 'success' && edited.value).toMatchObject({
      weight: 0,
      dimensions: { length: 3 },
    });
    // A negative number parses, and is then refused like in the API.
    const negative = parseWithZod(form({ ...recipient, weight: '-3' }), {
      schema: ParcelCreateFormSchema,
      disableAutoCoercion: true,
    });
    expect(negative.status).toBe('error');
  });

  it('reads nested contacts and numbered destination rows', () => {
    const input = parseCreateForm({
      'sender.name': 'Ada',
      'sender.email': '',
      ...recipient,
      'recipient.phone': '',
      'destinations[0].name': 'Stop A',
      'destinations[0].country': 'USA',
      'destinations[1].name': 'Stop B',
      'destinations[1].city': 'Paris',
      serviceType: 'Express',
    });
    const noParts = { city: '', region: '', postalCode: '', country: '', timeZone: '' };
    expect(input.sender).toEqual({ name: 'Ada', email: '', phone: '', address: '', ...noParts });
    expect(input.recipient).toEqual({
      name: 'Bob',
      email: '',
      phone: '',
      address: '2 Target Ave',
      ...noParts,
    });
    expect(input.destinations.map((d) => d.name)).toEqual(['Stop A', 'Stop B']);
    expect(input.destinations[1]!.city).toBe('Paris');
    expect(input.serviceType).toBe('Express');
    expect(input.priority).toBe('Standard');
    expect(input).not.toHaveProperty('status');
  });

  it('a form with only the recipient passes the create schema with defaults', () => {
    const before = Date.now();
    const result = parseCreateForm({ ...recipient, weight: 'n/a', estimatedDelivery: '' });
    expect(result.weight).toBe(0);
    expect(result.serviceType).toBe('Standard');
    expect(result.priority).toBe('Standard');
    expect(result.destinations).toEqual([
      { name: 'Bob', address: '2 Target Ave', city: '', country: 'USA', postalCode: '' },
    ]);
    const days = (result.estimatedDelivery.getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(3.99);
    expect(days).toBeLessThan(4.01);
  });

  it('says an empty recipient name and address are required', () => {
    const submission = parseWithZod(
      form({ 'recipient.name': '', 'recipient.address': ' ', 'sender.email': 'nope' }),
      { schema: ParcelCreateFormSchema, disableAutoCoercion: true },
    );
    expect(submission.status).toBe('error');
    expect(submission.status === 'error' && submission.error).toEqual({
      'recipient.name': ['Recipient name is required'],
      'recipient.address': ['Recipient address is required'],
      'sender.email': ['Invalid email address'],
    });
  });
});

describe('ParcelCreateSchema', () => {
  it('requires the recipient name and address, and checks e-mails only when given', () => {
    const result = ParcelCreateSchema.safeParse({
      recipient: { name: ' ', address: '', email: 'nope' },
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining(['recipient.name', 'recipient.address', 'recipient.email']),
    );
    expect(
      ParcelCreateSchema.safeParse({ recipient: { name: 'B', address: 'A', email: '' } }).success,
    ).toBe(true);
  });

  it('drops blank destination rows, defaults their country to USA, and drops status and cost', () => {
    const result = ParcelCreateSchema.parse({
      recipient: { name: 'B', address: 'A' },
      destinations: [
        { name: '', address: '', city: '', postalCode: '' },
        { name: 'Stop', city: 'Boston' },
      ],
      status: 'Delivered',
      cost: 0,
    });
    expect(result.destinations).toEqual([
      { name: 'Stop', address: '', city: 'Boston', country: 'USA', postalCode: '' },
    ]);
    expect(result).not.toHaveProperty('status');
    expect(result).not.toHaveProperty('cost');
  });

  it('accepts dates and ISO timestamps, refuses anything looser', () => {
    const base = { recipient: { name: 'B', address: 'A' } };
    expect(
      ParcelCreateSchema.parse({
        ...base,
        estimatedDelivery: '2030-05-06',
      }).estimatedDelivery.toISOString(),
    ).toBe('2030-05-06T00:00:00.000Z');
    expect(ParcelCreateSchema.safeParse({ ...base, estimatedDelivery: '1' }).success).toBe(false);
    expect(ParcelCreateSchema.safeParse({ ...base, estimatedDelivery: '2030-13-45' }).success).toBe(
      false,
    );
    expect(ParcelCreateSchema.safeParse({ ...base, estimatedDelivery: 5 }).success).toBe(false);
  });

  it('refuses negative numbers and non-numbers', () => {
    const base = { recipient: { name: 'B', address: 'A' } };
    expect(ParcelCreateSchema.safeParse({ ...base, weight: -0.1 }).success).toBe(false);
    expect(ParcelCreateSchema.safeParse({ ...base, weight: '1' }).success).toBe(false);
    expect(ParcelCreateSchema.safeParse({ ...base, dimensions: { height: -1 } }).success).toBe(
      false,
    );
  });
});

describe('ParcelUpdateSchema', () => {
  it('keeps only what was given', () => {
    expect(ParcelUpdateSchema.parse({ status: 'Returned' })).toEqual({ status: 'Returned' });
    expect(ParcelUpdateSchema.parse({ estimatedDelivery: '' }).estimatedDelivery).toBeUndefined();
    expect(ParcelUpdateSchema.safeParse({ status: 'Lost' }).success).toBe(false);
    expect(ParcelUpdateSchema.safeParse({ recipient: { name: '' } }).success).toBe(false);
  });
});

describe('ParcelListQuerySchema', () => {
  it('defaults to page 1 of 100 with no filters', () => {
    expect(ParcelListQuerySchema.parse({})).toEqual({
      page: 1,
      limit: 100,
      status: undefined,
      search: undefined,
      sort: 'createdAt',
    });
    expect(ParcelListQuerySchema.parse({ status: '', search: '  ' })).toEqual({
      page: 1,
      limit: 100,
      status: undefined,
      search: undefined,
      sort: 'createdAt',
    });
  });

  it('limits pages, statuses and search length', () => {
    expect(
      ParcelListQuerySchema.parse({
        page: '3',
        limit: '100',
        status: 'In Transit',
        search: ' SWX ',
      }),
    ).toEqual({
      page: 3,
      limit: 100,
      status: 'In Transit',
      search: 'SWX',
      sort: 'createdAt',
    });
    for (const bad of [
      { limit: '101' },
      { limit: '0' },
      { page: '-1' },
      { page: '1.5' },
      { status: 'Lost' },
      { search: 'x'.repeat(101) },
    ]) {
      expect(ParcelListQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
