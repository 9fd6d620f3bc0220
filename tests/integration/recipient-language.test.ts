import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { action as parcelsApi } from '~/routes/api.parcels';
import { action as parcelApi, loader as parcelApiLoader } from '~/routes/api.parcels.$id';
import { action as eventsApi } from '~/routes/api.tracking.$parcelId.events';
import { parcelCsvStream } from '~/services/parcel-csv.server';
import { action as trackAction } from '~/routes/_public.track';
import { action as confirmAction } from '~/routes/_public.subscriptions.confirm';
import { action as receiptApi } from '~/routes/api.receipts.generate.$parcelId';
import { queueReceiptEmail } from '~/services/receipt-email.server';
import { callRoute, uniqueAddress } from '../support/api';
import { createUsers, type UsersByRole } from '../support/factories';
import { startMailWorker, until, type MailWorker } from '../support/jobs';

/**
 * The recipient's language travels with the parcel (API, form, CSV) and every automatic e-mail
 * is written in it, whoever made the change: here staff working in English.
 */

let users: Pick<UsersByRole, 'staff'>;
let outbox: MailWorker;

beforeAll(async () => {
  await connectDb();
  outbox = await startMailWorker();
  users = await createUsers(['staff'], 'lang');
});

afterAll(async () => {
  await outbox?.stop();
});

type ParcelAnswer = {
  parcel: { id: string; trackingNumber: string; recipient: { language: string } };
  details: Record<string, string[]>;
};

async function createParcel(recipient: Record<string, string>) {
  const res = await callRoute(parcelsApi, '/api/parcels', {
    token: users.staff.token,
    body: { recipient: { name: 'Zoé Martin', address: '4 rue Oberkampf, Paris', ...recipient } },
  });
  return { status: res.status, body: (await res.json()) as ParcelAnswer };
}

describe('the recipient’s language', () => {
  it('is a BCP 47 tag, stored canonical, refused when it is not one, cleared with ""', async () => {
    const created = await createParcel({ language: 'FR-ca', email: 'zoe@example.fr' });
    expect(created.status).toBe(201);
    expect(created.body.parcel.recipient.language).toBe('fr-CA');
    const refused = await createParcel({ language: 'not a language!' });
    expect(refused.status).toBe(400);
    expect(refused.body.details['recipient.language']).toBeDefined();
    const id = created.body.parcel.id;
    const cleared = await callRoute(parcelApi, `/api/parcels/${id}`, {
      method: 'PUT',
      params: { id },
      token: users.staff.token,
      body: { recipient: { language: '' } },
    });
    expect(cleared.status).toBe(200);
    const read = await callRoute(parcelApiLoader, `/api/parcels/${id}`, {
      params: { id },
      token: users.staff.token,
    });
    expect(((await read.json()) as ParcelAnswer).parcel.recipient.language).toBe('');
  });

  it('goes out in the CSV export, as its own column', async () => {
    await createParcel({ language: 'de', name: 'Jonas CSV' });
    let csv = '';
    for await (const chunk of await parcelCsvStream({ search: 'Jonas CSV' })) csv += String(chunk);
    const [row] = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(row!.recipientLanguage).toBe('de');
  });

  it('writes a failed attempt’s automatic e-mail in French though staff work in English', async () => {
    const { body } = await createParcel({ language: 'fr', email: 'zoe.fr@example.fr' });
    const id = body.parcel.id;
    const added = await callRoute(eventsApi, `/api/tracking/${id}/events`, {
      params: { parcelId: id },
      token: users.staff.token,
      body: {
        status: 'Failed Delivery',
        location: 'Paris',
        reason: 'recipient_unavailable',
        nextAttemptDate: '2027-11-26',
        timestamp: '2027-11-25T09:30:00.000Z',
      },
    });
    expect(added.status).toBe(201);
    const mail = await outbox.smtp.waitForMessage('zoe.fr@example.fr');
    expect(mail.subject).toBe(
      `Tentative de livraison : personne n’était présent pour réceptionner le colis. Nous repasserons le vendredi 26 novembre (${body.parcel.trackingNumber})`,
    );
    expect(mail.text).toContain('Personne n’était présent pour réceptionner le colis');
    expect(mail.text).toContain('Nous repasserons le vendredi 26 novembre.');
    expect(mail.text).toContain(`Numéro de suivi : ${body.parcel.trackingNumber}`);
    expect(mail.text).not.toMatch(/Tracking number|What happened|Track your parcel/);
    expect(mail.html).toContain('<html lang="fr" dir="ltr">');
    expect(mail.html).toContain('Suivre votre colis');
  });

  it('writes the Arabic recipient’s status e-mail right to left, its status in Arabic', async () => {
    const { body } = await createParcel({ language: 'ar', email: 'layla@example.com' });
    const id = body.parcel.id;
    await callRoute(eventsApi, `/api/tracking/${id}/events`, {
      params: { parcelId: id },
      token: users.staff.token,
      body: { status: 'Out for Delivery', location: 'Depot' },
    });
    const mail = await outbox.smtp.waitForMessage('layla@example.com');
    expect(mail.subject).toBe(`مستجدات طردك ${body.parcel.trackingNumber}`);
    expect(mail.text).toContain('«خرج للتسليم»');
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
  });

  it('writes a subscriber’s e-mails in the language of the page they asked on, not the recipient’s', async () => {
    const { body } = await createParcel({ language: 'fr', email: 'zoe.sub@example.fr' });
    const { id, trackingNumber } = body.parcel;
    // The page was read in Spanish: its form says so in its hidden field.
    const asked = await callRoute(trackAction, `/track?number=${trackingNumber}`, {
      method: 'POST',
      body: new URLSearchParams({ email: 'lucia@example.es', website: '', lang: 'es' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      clientAddress: uniqueAddress(),
    });
    expect(asked.status).toBe(302);
    const confirmation = await outbox.smtp.waitForMessage('lucia@example.es');
    expect(confirmation.subject).toBe(
      `Confirma los avisos por correo del paquete ${trackingNumber}`,
    );
    expect(confirmation.text).toContain('confirma en las próximas 48 horas');
    expect(confirmation.html).toContain('<html lang="es" dir="ltr">');
    expect(confirmation.html).toContain(`<strong>${trackingNumber}</strong>`);
    const link = new URL(
      /https?:\/\/\S+\/subscriptions\/confirm\?token=\S+/.exec(confirmation.text!)![0],
    );
    await callRoute(confirmAction, link.pathname + link.search, { method: 'POST' });
    await callRoute(eventsApi, `/api/tracking/${id}/events`, {
      params: { parcelId: id },
      token: users.staff.token,
      body: {
        status: 'Arrived at Facility',
        location: 'Lyon',
        timestamp: '2027-11-25T09:30:00.000Z',
      },
    });
    const update = await until(async () =>
      outbox.smtp.messages.find(
        (m) =>
          m.to &&
          JSON.stringify(m.to).includes('lucia@example.es') &&
          m.subject !== confirmation.subject,
      ),
    );
    expect(update.subject).toBe(`Novedades de tu paquete ${trackingNumber}`);
    expect(update.text).toMatch(
      /Última novedad: Ha llegado al centro · Lyon · jueves 25 de noviembre, 10:30/,
    );
    expect(update.html).toContain('<html lang="es" dir="ltr">');
    expect(update.text).not.toMatch(/Latest update|Dear|Cher/);
  });

  it('confirms delivery preferences in the language of the form, and e-mails a receipt in the recipient’s', async () => {
    const { body } = await createParcel({
      language: 'de',
      email: 'jonas@example.de',
      postalCode: '10115',
    });
    const { id, trackingNumber } = body.parcel;
    const saved = await callRoute(trackAction, `/track?number=${trackingNumber}`, {
      method: 'POST',
      body: new URLSearchParams({
        intent: 'preferences',
        postalCode: '10115',
        instructions: 'Bitte klingeln',
        lang: 'ar',
      }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      clientAddress: uniqueAddress(),
    });
    expect(saved.status).toBe(302);
    const preferences = await outbox.smtp.waitForMessage('jonas@example.de');
    expect(preferences.html).toContain('<html lang="ar" dir="rtl">');
    expect(preferences.subject).not.toMatch(/[A-Za-z]{4}/);

    const generated = await callRoute(receiptApi, `/api/receipts/generate/${id}`, {
      params: { parcelId: id },
      token: users.staff.token,
      body: { customerEmail: 'jonas.receipt@example.de', customerName: 'Jonas' },
    });
    expect(generated.status).toBe(201);
    await queueReceiptEmail(((await generated.json()) as { receipt: never }).receipt);
    const receipt = await outbox.smtp.waitForMessage('jonas.receipt@example.de');
    expect(receipt.subject).toMatch(/^Ihre Quittung RCP-/);
    expect(receipt.text).toMatch(/^Guten Tag Jonas,/);
    expect(receipt.text).toMatch(/Gesamt.*\d+,\d\d\s\$/);
    expect(receipt.html).toContain('<div lang="de" dir="ltr"');
  });
});
