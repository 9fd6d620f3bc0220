import { randomBytes } from 'node:crypto';
import { seedRateCard } from '~/models/rate-card.server';
import { Parcel } from '~/models/parcel.server';
import { insertWithTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { User, createUser } from '~/models/user.server';
import type { ParcelStatus, Priority, ServiceType } from '~/schemas/constants';
import type { DestinationInput } from '~/schemas/parcel';
import { env } from '~/lib/env.server';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

type DemoEvent = { status: string; location: string; description: string; hoursAgo: number };
type DemoParcel = {
  status: ParcelStatus;
  serviceType: ServiceType;
  priority: Priority;
  weight: number;
  dimensions: { length: number; width: number; height: number };
  sender: { name: string; email: string; phone: string; address: string };
  recipient: { name: string; email: string; phone: string; address: string };
  destinations: DestinationInput[];
  estimatedInDays: number;
  deliveredHoursAgo?: number;
  events: DemoEvent[];
};

const DEMO_PARCELS: DemoParcel[] = [
  {
    status: 'In Transit',
    serviceType: 'Express',
    priority: 'High',
    weight: 2.4,
    dimensions: { length: 30, width: 20, height: 15 },
    sender: {
      name: 'Harbor Books Ltd',
      email: 'orders@harborbooks.example',
      phone: '+1 212 555 0143',
      address: '88 Pearl Street, New York, NY 10004',
    },
    recipient: {
      name: 'Maria Gonzalez',
      email: 'maria.gonzalez@example.com',
      phone: '+1 312 555 0178',
      address: '1420 W Fulton Market, Chicago, IL 60607',
    },
    destinations: [
      {
        name: 'Maria Gonzalez',
        address: '1420 W Fulton Market',
        city: 'Chicago',
        country: 'USA',
        postalCode: '60607',
      },
    ],
    estimatedInDays: 1,
    events: [
      {
        status: 'In Transit',
        location: 'Cleveland, OH',
        description: 'Package is on its way to the next facility',
        hoursAgo: 3,
      },
      {
        status: 'Departed Facility',
        location: 'Newark, NJ',
        description: 'Departed sorting facility',
        hoursAgo: 14,
      },
      {
        status: 'Arrived at Facility',
        location: 'Newark, NJ',
        description: 'Arrived at regional sorting facility',
        hoursAgo: 19,
      },
      {
        status: 'Package Picked Up',
        location: 'New York, NY',
        description: 'Picked up from sender',
        hoursAgo: 26,
      },
    ],
  },
  {
    status: 'Out for Delivery',
    serviceType: 'Standard',
    priority: 'Standard',
    weight: 5.8,
    dimensions: { length: 45, width: 35, height: 25 },
    sender: {
      name: 'Northwind Outdoor Co.',
      email: 'ship@northwind.example',
      phone: '+1 503 555 0110',
      address: '700 NW Everett St, Portland, OR 97209',
    },
    recipient: {
      name: 'James Whitaker',
      email: 'j.whitaker@example.com',
      phone: '+1 206 555 0191',
      address: '2201 4th Ave, Seattle, WA 98121',
    },
    destinations: [
      {
        name: 'James Whitaker',
        address: '2201 4th Ave',
        city: 'Seattle',
        country: 'USA',
        postalCode: '98121',
      },
    ],
    estimatedInDays: 0,
    events: [
      {
        status: 'Out for Delivery',
        location: 'Seattle, WA',
        description: 'With the courier for delivery today',
        hoursAgo: 2,
      },
      {
        status: 'Arrived at Facility',
        location: 'Seattle, WA',
        description: 'Arrived at local delivery station',
        hoursAgo: 9,
      },
      {
        status: 'In Transit',
        location: 'Tacoma, WA',
        description: 'In transit to the delivery station',
        hoursAgo: 30,
      },
      {
        status: 'Package Picked Up',
        location: 'Portland, OR',
        description: 'Picked up from sender',
        hoursAgo: 52,
      },
    ],
  },
  {
    status: 'Delivered',
    serviceType: 'Overnight',
    priority: 'Express',
    weight: 0.8,
    dimensions: { length: 25, width: 18, height: 4 },
    sender: {
      name: 'Lumen Legal LLP',
      email: 'docs@lumenlegal.example',
      phone: '+1 415 555 0122',
      address: '1 Market St, San Francisco, CA 94105',
    },
    recipient: {
      name: 'Daniel Okafor',
      email: 'daniel.okafor@example.com',
      phone: '+1 213 555 0164',
      address: '350 S Grand Ave, Los Angeles, CA 90071',
    },
    destinations: [
      {
        name: 'Daniel Okafor',
        address: '350 S Grand Ave',
        city: 'Los Angeles',
        country: 'USA',
        postalCode: '90071',
      },
    ],
    estimatedInDays: -1,
    deliveredHoursAgo: 20,
    events: [
      {
        status: 'Delivered',
        location: 'Los Angeles, CA',
        description: 'Delivered to reception, signed by A. Reyes',
        hoursAgo: 20,
      },
      {
        status: 'Out for Delivery',
        location: 'Los Angeles, CA',
        description: 'With the courier for delivery today',
        hoursAgo: 25,
      },
      {
        status: 'In Transit',
        location: 'Oakland, CA',
        description: 'Overnight linehaul to Los Angeles',
        hoursAgo: 33,
      },
      {
        status: 'Package Picked Up',
        location: 'San Francisco, CA',
        description: 'Picked up from sender',
        hoursAgo: 36,
      },
    ],
  },
  {
    status: 'Pending',
    serviceType: 'Premium',
    priority: 'Standard',
    weight: 12.5,
    dimensions: { length: 60, width: 40, height: 40 },
    sender: {
      name: 'Atelier Verde',
      email: 'hello@atelierverde.example',
      phone: '+44 20 7946 0321',
      address: '14 Shoreditch High St, London E1 6PG',
    },
    recipient: {
      name: 'Sophie Laurent',
      email: 'sophie.laurent@example.com',
      phone: '+33 1 70 36 45 12',
      address: '22 Rue de Rivoli, 75004 Paris',
    },
    destinations: [
      {
        name: 'Sophie Laurent',
        address: '22 Rue de Rivoli',
        city: 'Paris',
        country: 'France',
        postalCode: '75004',
      },
      {
        name: 'Galerie Moreau',
        address: '5 Rue Saint-Honoré',
        city: 'Paris',
        country: 'France',
        postalCode: '75001',
      },
    ],
    estimatedInDays: 5,
    events: [],
  },
  {
    status: 'Failed',
    serviceType: 'Standard',
    priority: 'Low',
    weight: 1.2,
    dimensions: { length: 20, width: 15, height: 10 },
    sender: {
      name: 'Pixel Parts Inc.',
      email: 'support@pixelparts.example',
      phone: '+1 512 555 0187',
      address: '600 Congress Ave, Austin, TX 78701',
    },
    recipient: {
      name: 'Priya Natarajan',
      email: 'priya.n@example.com',
      phone: '+1 617 555 0135',
      address: '77 Massachusetts Ave, Cambridge, MA 02139',
    },
    destinations: [
      {
        name: 'Priya Natarajan',
        address: '77 Massachusetts Ave',
        city: 'Cambridge',
        country: 'USA',
        postalCode: '02139',
      },
    ],
    estimatedInDays: -2,
    events: [
      {
        status: 'Failed Delivery',
        location: 'Cambridge, MA',
        description: 'Recipient not available; a notice was left at the door',
        hoursAgo: 28,
      },
      {
        status: 'Out for Delivery',
        location: 'Cambridge, MA',
        description: 'With the courier for delivery today',
        hoursAgo: 34,
      },
      {
        status: 'In Transit',
        location: 'Hartford, CT',
        description: 'In transit to the delivery station',
        hoursAgo: 60,
      },
      {
        status: 'Package Picked Up',
        location: 'Austin, TX',
        description: 'Picked up from sender',
        hoursAgo: 110,
      },
    ],
  },
];

/** Where the demo events' places keep their clocks (by the US state that ends the location). */
const DEMO_TIME_ZONES: Record<string, string> = {
  CA: 'America/Los_Angeles',
  CT: 'America/New_York',
  MA: 'America/New_York',
  NJ: 'America/New_York',
  NY: 'America/New_York',
  OH: 'America/New_York',
  OR: 'America/Los_Angeles',
  TX: 'America/Chicago',
  WA: 'America/Los_Angeles',
};

/** Inserts the demo parcels; returns their tracking numbers. */
export async function createDemoParcels(now = Date.now()): Promise<string[]> {
  const numbers: string[] = [];
  for (const demo of DEMO_PARCELS) {
    const { events, estimatedInDays, deliveredHoursAgo, ...fields } = demo;
    const parcel = await insertWithTrackingNumber((trackingNumber) =>
      Parcel.create({
        ...fields,
        trackingNumber,
        cost: 25.99,
        estimatedDelivery: new Date(now + estimatedInDays * DAY),
        actualDelivery:
          deliveredHoursAgo === undefined ? undefined : new Date(now - deliveredHoursAgo * HOUR),
        events: events.map((e) => ({
          status: e.status,
          location: e.location,
          description: e.description,
          timestamp: new Date(now - e.hoursAgo * HOUR),
          timeZone: DEMO_TIME_ZONES[e.location.slice(-2)],
        })),
      }),
    );
    numbers.push(parcel.trackingNumber);
  }
  return numbers;
}

export type SeedResult =
  | { seeded: false }
  | {
      seeded: true;
      username: string;
      password: string | null;
      generatedPassword: boolean;
      trackingNumbers: string[];
    };

/**
 * Seeds an empty database with an admin and demo parcels. Does nothing when any data exists. A
 * password the seed makes up is printed, so it is temporary: the admin must change it at the
 * first sign-in, as a user whose password an admin reset must. ADMIN_PASSWORD is the operator's
 * own choice and stays.
 */
export async function seedIfEmpty(options: { demoParcels: boolean }): Promise<SeedResult> {
  const [users, parcels] = await Promise.all([User.countDocuments(), Parcel.countDocuments()]);
  if (users > 0 || parcels > 0) return { seeded: false };
  const username = env.ADMIN_USERNAME ?? 'admin';
  const generatedPassword = !env.ADMIN_PASSWORD;
  const password = env.ADMIN_PASSWORD ?? randomBytes(9).toString('base64url');
  await createUser({
    username,
    password,
    name: 'Administrator',
    email: env.COMPANY_EMAIL,
    role: 'admin',
    mustChangePassword: generatedPassword,
  });
  const trackingNumbers = options.demoParcels ? await createDemoParcels() : [];
  // The starting prices: a small parcel at home costs the plans (Basic 9.99, Premium 19.99).
  await seedRateCard();
  return {
    seeded: true,
    username,
    password: generatedPassword ? password : null,
    generatedPassword,
    trackingNumbers,
  };
}

export function describeSeed(result: SeedResult): string {
  if (!result.seeded) return '';
  const password = result.generatedPassword
    ? `${result.password} (temporary: choose your own at the first sign-in)`
    : '(from ADMIN_PASSWORD)';
  const lines = [
    'First start on an empty database: created the staff account and demo data.',
    `  Staff login:    /management/access`,
    `  Username:       ${result.username}`,
    `  Password:       ${password}`,
  ];
  if (result.trackingNumbers.length > 0) {
    lines.push(`  Demo parcels:   ${result.trackingNumbers.join(', ')}`);
    lines.push(`  Try:            /track?number=${result.trackingNumbers[0]}`);
  }
  return lines.join('\n');
}

/** First start: an empty embedded database (or SEED_DEMO=true) gets the admin and demo parcels. */
export async function seedOnFirstStart({ embedded }: { embedded: boolean }) {
  if (!embedded && env.SEED_DEMO !== 'true') return;
  const result = await seedIfEmpty({ demoParcels: true });
  if (result.seeded) console.log(describeSeed(result));
}
