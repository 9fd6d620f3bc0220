import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertWithTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { Parcel } from '~/models/parcel.server';
import { getReceipt, Receipt } from '~/models/receipt.server';
import { generateReceipt } from '~/services/receipts.server';
import { action as itemAction, loader as itemLoader } from '~/routes/api.receipts.$id';
import {
  action as generateAction,
  loader as generateLoader,
} from '~/routes/api.receipts.generate.$parcelId';
import { loader as listLoader } from '~/routes/api.receipts';
import { loader as downloadLoader } from '~/routes/dashboard.receipts.$receiptId.download';
import { loader as printLoader } from '~/routes/dashboard.receipts.$receiptId.print';
import { action as pageAction, loader as pageLoader } from '~/routes/dashboard.receipts';
import { action as newAction, loader as newLoader } from '~/routes/dashboard.receipts.new';
import { connectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { startJobWorker, type JobWorker } from '~/services/jobs.server';
import { queueReceiptEmail } from '~/services/receipt-email.server';
import {
  renderReceiptHtml,
  renderReceiptPdf,
  renderReceiptText,
  sampleReceipt,
} from '~/services/receipt-render.server';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp';
import { pdfText } from '../support/pdf';
import { createUser } from '../support/factories';
import { answer, apiRequest as apiRequestAs, toastOf, expectToast } from '../support/api';
import { apiError } from '../support/api-error';

const context = { clientAddress: '10.1.2.3' };
const base = 'http://localhost';
const company = {
  name: 'SwiftShip Courier',
  phone: '+1 (800) 555-0199',
  email: 'support@swiftship.example',
  address: '350 Fifth Avenue, Suite 4100, New York, NY 10118, United States',
  timeZone: 'America/New_York',
};
const year = new Date().getUTCFullYear();
let token: string;
let cookie: string;
let smtp: TestSmtpServer;
let worker: JobWorker;

/** Waits until the queued e-mail of the receipt was sent (`emailedAt`) or failed for good. */
async function emailOutcome(id: string) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const receipt = await getReceipt(id);
    if (receipt?.emailedAt || receipt?.emailError) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

/** An API request as the admin, or with the token `auth` (null: none). */
const apiRequest = (
  url: string,
  { auth = token, ...init }: Parameters<typeof apiRequestAs>[2] & { auth?: string | null } = {},
) => apiRequestAs(url, auth === null ? null : { token: auth }, init);

async function makeParcel(overrides: Record<string, unknown> = {}) {
  const doc = await insertWithTrackingNumber((trackingNumber) =>
    Parcel.create({
      trackingNumber,
      sender: {
        name: 'Ada Sender',
        email: 'ada.sender@example.com',
        phone: '555-0100',
        address: '1 Main St',
      },
      recipient: {
        name: 'Rick Recipient',
        email: 'rick@example.com',
        phone: '555-0101',
        address: '2 High St',
      },
      serviceType: 'Express',
      cost: 25.99,
      ...overrides,
    }),
  );
  return { id: String(doc._id), trackingNumber: doc.trackingNumber };
}

async function generate(parcelId: string, body?: unknown) {
  return answer(
    generateAction,
    apiRequest(`/api/receipts/generate/${parcelId}`, { method: 'POST', body }),
    { parcelId },
  );
}

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  await connectDb();
  registerJobKinds();
  env.MAIL_RETRY_DELAYS = [0.05, 0.05, 0.05];
  worker = startJobWorker({ pollMs: 20 });
  ({ token, cookie } = await createUser('admin', { username: 'receipts-admin' }));
});

function pageRequest(url: string, form?: Record<string, string>, withCookie = true) {
  return new Request(`${base}${url}`, {
    method: form ? 'POST' : 'GET',
    headers: withCookie ? { Cookie: cookie } : {},
    body: form ? new URLSearchParams(form) : undefined,
  });
}

afterAll(async () => {
  await worker?.stop();
  env.SMTP_URL = undefined;
  await smtp?.stop();
});

describe('POST /api/receipts/generate/:parcelId', () => {
  it('numbers receipts RCP-{year}-0001, -0002 and fills them from the parcel', async () => {
    const parcel = await makeParcel();
    const first = await generate(parcel.id);
    expect(first.status).toBe(201);
    const { receipt } = await first.json();
    expect(receipt).toMatchObject({
      receiptNumber: `RCP-${year}-0001`,
      parcelId: parcel.id,
      trackingNumber: parcel.trackingNumber,
      customerName: 'Ada Sender',
      customerEmail: 'ada.sender@example.com',
      amount: 25.99,
      subtotal: 25.99,
      tax: 0,
      total: 25.99,
      service: 'Express',
      status: 'generated',
      paymentMethod: 'Credit Card',
      format: 'pdf',
    });
    expect(receipt.id).toMatch(/^[a-f\d]{24}$/);
    expect(receipt._id).toBe(receipt.id);
    expect(new Date(receipt.date).toISOString()).toBe(receipt.date);

    const second = await generate(parcel.id, {
      customerName: 'Other Payer',
      customerEmail: 'payer@example.com',
      paymentMethod: 'PayPal',
      format: 'txt',
    });
    expect(second.status).toBe(201);
    expect((await second.json()).receipt).toMatchObject({
      receiptNumber: `RCP-${year}-0002`,
      customerName: 'Other Payer',
      customerEmail: 'payer@example.com',
      paymentMethod: 'PayPal',
      format: 'txt',
    });
  });

  it('gives 20 concurrent generations 20 distinct numbers', async () => {
    const parcel = await makeParcel();
    const responses = await Promise.all(Array.from({ length: 20 }, () => generate(parcel.id)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const numbers = await Promise.all(
      responses.map(async (r) => (await r.json()).receipt.receiptNumber as string),
    );
    expect(new Set(numbers).size).toBe(20);
    for (const n of numbers) expect(n).toMatch(new RegExp(`^RCP-${year}-\\d{4}$`));
  });

  it('keeps counting past 9999 with more digits', async () => {
    const parcel = await makeParcel();
    const future = new Date(Date.UTC(2999, 5, 1));
    await Receipt.db
      .collection('counters')
      .updateOne({ _id: 'receipt-2999' as never }, { $set: { seq: 9998 } }, { upsert: true });
    const a = await generateReceipt(parcel.id, {}, future);
    const b = await generateReceipt(parcel.id, {}, future);
    expect([a?.receiptNumber, b?.receiptNumber]).toEqual(['RCP-2999-9999', 'RCP-2999-10000']);
  });

  it('computes amounts from the parcel cost', async () => {
    const parcel = await makeParcel({ cost: 10.5 });
    const { receipt } = await (await generate(parcel.id)).json();
    expect(receipt).toMatchObject({ amount: 10.5, subtotal: 10.5, tax: 0, total: 10.5 });
  });

  it('refuses a missing token, bad input, malformed and unknown parcels, storing nothing', async () => {
    const parcel = await makeParcel();
    const before = await Receipt.countDocuments();

    const noAuth = await answer(
      generateAction,
      apiRequest(`/api/receipts/generate/${parcel.id}`, { method: 'POST', auth: null }),
      { parcelId: parcel.id },
    );
    expect(noAuth.status).toBe(401);
    expect(await noAuth.json()).toMatchObject({
      error: expect.any(String),
      message: expect.any(String),
    });

    const badToken = await answer(
      generateAction,
      apiRequest(`/api/receipts/generate/${parcel.id}`, { method: 'POST', auth: 'nope' }),
      { parcelId: parcel.id },
    );
    expect(badToken.status).toBe(401);

    const injected = await generate(parcel.id, { customerName: { $gt: '' } });
    expect(injected.status).toBe(400);
    expect((await injected.json()).details).toHaveProperty('customerName');

    const badEmail = await generate(parcel.id, { customerEmail: 'not-an-email' });
    expect(badEmail.status).toBe(400);
    const badFormat = await generate(parcel.id, { format: 'docx' });
    expect(badFormat.status).toBe(400);
    const badMethod = await generate(parcel.id, { paymentMethod: 'Gold bars' });
    expect(badMethod.status).toBe(400);

    const notJson = await answer(
      generateAction,
      apiRequest(`/api/receipts/generate/${parcel.id}`, {
        method: 'POST',
        rawBody: 'format=pdf',
        type: 'application/x-www-form-urlencoded',
      }),
      { parcelId: parcel.id },
    );
    expect(notJson.status).toBe(415);
    const brokenJson = await answer(
      generateAction,
      apiRequest(`/api/receipts/generate/${parcel.id}`, { method: 'POST', rawBody: '{oops' }),
      {
        parcelId: parcel.id,
      },
    );
    expect(brokenJson.status).toBe(400);

    const malformed = await generate('not-an-id');
    expect(malformed.status).toBe(400);
    const unknown = await generate('0123456789abcdef01234567');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(apiError('Parcel not found', 'not_found'));

    const get = await answer(generateLoader, apiRequest(`/api/receipts/generate/${parcel.id}`), {
      parcelId: parcel.id,
    });
    expect(get.status).toBe(405);

    expect(await Receipt.countDocuments()).toBe(before);
  });
});

describe('GET /api/receipts', () => {
  it('lists newest first with pagination', async () => {
    const parcel = await makeParcel();
    const created: string[] = [];
    for (let i = 0; i < 3; i++)
      created.push((await (await generate(parcel.id)).json()).receipt.receiptNumber);
    const total = await Receipt.countDocuments();

    const res = await answer(listLoader, apiRequest('/api/receipts?page=1&limit=2'));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.receipts).toHaveLength(2);
    expect(body.receipts.map((r: { receiptNumber: string }) => r.receiptNumber)).toEqual([
      created[2],
      created[1],
    ]);
    expect(body.pagination).toEqual({
      totalItems: total,
      currentPage: 1,
      totalPages: Math.ceil(total / 2),
      limit: 2,
    });

    const page2 = await (
      await answer(listLoader, apiRequest('/api/receipts?page=2&limit=2'))
    ).json();
    expect(page2.receipts[0].receiptNumber).toBe(created[0]);

    const filtered = await (
      await answer(listLoader, apiRequest('/api/receipts?status=generated&limit=100'))
    ).json();
    expect(filtered.pagination.totalItems).toBe(total);
  });

  it('refuses a missing token and bad query values', async () => {
    expect((await answer(listLoader, apiRequest('/api/receipts', { auth: null }))).status).toBe(
      401,
    );
    for (const query of ['page=0', 'page=abc', 'limit=101', 'limit=0', 'status=paid']) {
      const res = await answer(listLoader, apiRequest(`/api/receipts?${query}`));
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'Validation failed',
        details: expect.any(Object),
      });
    }
  });
});

describe('/api/receipts/:id', () => {
  it('gets, updates and deletes a receipt', async () => {
    const parcel = await makeParcel();
    const { receipt } = await (await generate(parcel.id)).json();

    const got = await answer(itemLoader, apiRequest(`/api/receipts/${receipt.id}`), {
      id: receipt.id,
    });
    expect(got.status).toBe(200);
    expect((await got.json()).receipt).toEqual(receipt);

    const put = await answer(
      itemAction,
      apiRequest(`/api/receipts/${receipt.id}`, {
        method: 'PUT',
        body: { customerName: 'New Name', customerEmail: 'new@example.com', paymentMethod: 'Cash' },
      }),
      { id: receipt.id },
    );
    expect(put.status).toBe(200);
    const updated = (await put.json()).receipt;
    expect(updated).toMatchObject({
      id: receipt.id,
      customerName: 'New Name',
      customerEmail: 'new@example.com',
      paymentMethod: 'Cash',
      receiptNumber: receipt.receiptNumber,
      total: receipt.total,
    });
    expect((await getReceipt(receipt.id))?.customerName).toBe('New Name');

    const del = await answer(
      itemAction,
      apiRequest(`/api/receipts/${receipt.id}`, { method: 'DELETE' }),
      { id: receipt.id },
    );
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ success: true, message: 'Receipt deleted' });
    expect(await getReceipt(receipt.id)).toBeNull();

    const again = await answer(
      itemAction,
      apiRequest(`/api/receipts/${receipt.id}`, { method: 'DELETE' }),
      { id: receipt.id },
    );
    expect(again.status).toBe(404);
  });

  it('answers 401, 400 and 404 and leaves the receipt as it was', async () => {
    const parcel = await makeParcel();
    const { receipt } = await (await generate(parcel.id)).json();
    const id = receipt.id;
    const unknown = '0123456789abcdef01234567';

    expect(
      (await answer(itemLoader, apiRequest(`/api/receipts/${id}`, { auth: null }), { id })).status,
    ).toBe(401);
    expect(
      (
        await answer(
          itemAction,
          apiRequest(`/api/receipts/${id}`, {
            method: 'PUT',
            body: { customerName: 'X' },
            auth: null,
          }),
          { id },
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await answer(
          itemAction,
          apiRequest(`/api/receipts/${id}`, { method: 'DELETE', auth: null }),
          { id },
        )
      ).status,
    ).toBe(401);

    expect((await answer(itemLoader, apiRequest('/api/receipts/xyz'), { id: 'xyz' })).status).toBe(
      400,
    );
    expect(
      (
        await answer(itemAction, apiRequest('/api/receipts/xyz', { method: 'DELETE' }), {
          id: 'xyz',
        })
      ).status,
    ).toBe(400);
    for (const body of [
      { customerName: { $gt: '' } },
      { customerEmail: 'nope' },
      { status: 'paid' },
      {},
      [],
    ]) {
      const res = await answer(
        itemAction,
        apiRequest(`/api/receipts/${id}`, { method: 'PUT', body }),
        { id },
      );
      expect(res.status, JSON.stringify(body)).toBe(400);
    }

    const missing = await answer(itemLoader, apiRequest(`/api/receipts/${unknown}`), {
      id: unknown,
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(apiError('Receipt not found', 'not_found'));
    expect(
      (
        await answer(
          itemAction,
          apiRequest(`/api/receipts/${unknown}`, { method: 'PUT', body: { customerName: 'X' } }),
          { id: unknown },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await answer(itemAction, apiRequest(`/api/receipts/${unknown}`, { method: 'DELETE' }), {
          id: unknown,
        })
      ).status,
    ).toBe(404);

    expect(await getReceipt(id)).toEqual(receipt);
  });
});

describe('receipt documents', () => {
  const receipt = {
    ...sampleReceipt(new Date(Date.UTC(2025, 2, 14))),
    receiptNumber: 'RCP-2025-0042',
    customerName: '<script>alert(1)</script> & Co',
  };

  it('renders a real PDF with the receipt details', async () => {
    const pdf = await renderReceiptPdf(receipt, company, { compress: false });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [
      'SwiftShip Courier',
      'RCP-2025-0042',
      'SWX123456789',
      '$25.99',
      'Subtotal',
      'Total',
      'Credit Card',
      '<script>alert(1)</script> & Co',
    ]) {
      expect(text).toContain(expected);
    }
    const compressed = await renderReceiptPdf(receipt, company);
    expect(compressed.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfText(compressed)).toContain('RCP-2025-0042');
  });

  it('prints names in Latin, Greek and Cyrillic as written, with its fonts embedded', async () => {
    const pdf = await renderReceiptPdf(
      { ...receipt, customerName: 'Łukasz Wiśniewski, Αθηνά Παππά, Мария Иванова, 東京' },
      company,
    );
    // Characters the font has no glyph for print as '?', never as an empty box.
    expect(pdfText(pdf)).toContain('Łukasz Wiśniewski, Αθηνά Παππά, Мария Иванова, ??');
    expect(pdf.toString('latin1')).toMatch(/\/FontFile2 \d+ 0 R/);
    expect(pdf.toString('latin1')).not.toMatch(/\/BaseFont \/Helvetica/);
  });

  it('renders a self-contained, printable HTML document that escapes what customers typed', () => {
    const html = renderReceiptHtml(receipt, company);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('@media print');
    expect(html).toContain('RCP-2025-0042');
    expect(html).toContain('$25.99');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(html).not.toMatch(/<link|src=/);
  });

  it("prints the company's address and the day in the company's zone in every format, and no status", async () => {
    // Midnight UTC on 14 March is still 13 March in New York.
    const documents = [
      pdfText(await renderReceiptPdf(receipt, company, { compress: false })),
      renderReceiptHtml(receipt, company),
      renderReceiptText(receipt, company),
    ];
    for (const document of documents) {
      expect(document).toContain('350 Fifth Avenue, Suite 4100, New York, NY 10118, United States');
      expect(document).toContain('13 Mar 2025');
      expect(document).not.toMatch(/Status/);
      expect(document).not.toContain('generated');
    }
  });

  it('renders aligned plain text', () => {
    const text = renderReceiptText(receipt, company);
    expect(text).toContain('RCP-2025-0042');
    expect(text).toContain('$25.99');
    const totals = text.split('\n').filter((line) => /^\s*(Subtotal|Tax \(0%\)|Total):/.test(line));
    expect(totals).toHaveLength(3);
    expect(new Set(totals.map((line) => line.length)).size).toBe(1);
  });
});

describe('e-mailing a receipt', () => {
  it('delivers the receipt to the customer with the file attached', async () => {
    const parcel = await makeParcel({
      sender: { name: 'Mail Customer', email: 'mail.customer@example.com' },
    });
    const { receipt } = await (await generate(parcel.id, { format: 'txt' })).json();
    env.SMTP_URL = smtp.url;
    await queueReceiptEmail(receipt);
    expect((await emailOutcome(receipt.id))?.emailError).toBeNull();
    const message = await smtp.waitForMessage('mail.customer@example.com');
    expect(message.subject).toContain(receipt.receiptNumber);
    expect(message.html).toContain(receipt.receiptNumber);
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0]!.filename).toBe(`receipt-${receipt.receiptNumber}.txt`);
    expect(message.attachments[0]!.content.toString('utf8')).toContain('$25.99');
    expect((await getReceipt(receipt.id))?.emailedAt).toEqual(expect.any(String));
  });

  it('records the error on the receipt when the mail server refuses every attempt', async () => {
    const refusing = await startTestSmtpServer({ reject: true });
    try {
      const parcel = await makeParcel({
        sender: { name: 'Refused Customer', email: 'refused.customer@example.com' },
      });
      const { receipt } = await (await generate(parcel.id, { format: 'txt' })).json();
      env.SMTP_URL = refusing.url;
      await queueReceiptEmail(receipt);
      const outcome = await emailOutcome(receipt.id);
      expect(outcome?.emailedAt).toBeNull();
      expect(outcome?.emailError).toMatch(/550/);
    } finally {
      await refusing.stop();
    }
  });

  it('attaches a PDF for a PDF receipt', async () => {
    const parcel = await makeParcel({
      sender: { name: 'Pdf Customer', email: 'pdf.customer@example.com' },
    });
    const { receipt } = await (await generate(parcel.id)).json();
    env.SMTP_URL = smtp.url;
    await queueReceiptEmail(receipt);
    await emailOutcome(receipt.id);
    const message = await smtp.waitForMessage('pdf.customer@example.com');
    expect(message.attachments[0]).toMatchObject({
      filename: `receipt-${receipt.receiptNumber}.pdf`,
      contentType: 'application/pdf',
    });
    expect(message.attachments[0]!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

describe('the Receipts tab', () => {
  it('sends signed-out visitors to the login page', async () => {
    const res = await pageLoader({
      request: pageRequest('/dashboard/receipts', undefined, false),
      params: {},
      context,
    } as never).catch((r: Response) => r);
    expect((res as Response).status).toBe(302);
    expect((res as Response).headers.get('Location')).toMatch(/^\/management\/access\?redirectTo=/);
  });

  it('generates from the dialog with the parcel sender prefilled, and refuses bad input', async () => {
    const parcel = await makeParcel({
      sender: { name: 'Dialog Sender', email: 'dialog.sender@example.com' },
    });
    const form = await (
      await newLoader({
        request: pageRequest(`/dashboard/receipts/new?parcelId=${parcel.id}&format=html`),
        params: {},
        context,
      } as never)
    ).json();
    expect(form.values).toMatchObject({
      parcelId: parcel.id,
      customerName: 'Dialog Sender',
      customerEmail: 'dialog.sender@example.com',
      format: 'html',
      paymentMethod: 'Credit Card',
    });
    expect(form.parcels.some((p: { id: string }) => p.id === parcel.id)).toBe(true);

    const before = await Receipt.countDocuments();
    const bad = await newAction({
      request: pageRequest('/dashboard/receipts/new', {
        parcelId: '',
        customerEmail: 'nope',
        format: 'pdf',
      }),
      params: {},
      context,
    } as never);
    expect(bad.status).toBe(400);
    const badBody = await bad.json();
    expect(badBody.status).toBe('error');
    expect(Object.keys(badBody.error ?? {})).toEqual(
      expect.arrayContaining(['parcelId', 'customerEmail']),
    );
    const unknown = await newAction({
      request: pageRequest('/dashboard/receipts/new', { parcelId: '0123456789abcdef01234567' }),
      params: {},
      context,
    } as never);
    expect(unknown.status).toBe(400);
    expect(await Receipt.countDocuments()).toBe(before);

    const ok = await newAction({
      request: pageRequest('/dashboard/receipts/new', {
        parcelId: parcel.id,
        customerName: '',
        customerEmail: '',
        paymentMethod: 'Debit Card',
        format: 'html',
      }),
      params: {},
      context,
    } as never);
    expect(ok.status).toBe(302);
    expect(ok.headers.get('Location')).toBe('/dashboard/receipts');
    const toast = (await toastOf(ok))!;
    expect(toast).toMatchObject({
      type: 'success',
      title: 'Receipt generated',
      description: expect.stringMatching(/^RCP-\d{4}-\d{4,}$/),
    });
    const stored = await Receipt.findOne({ receiptNumber: toast.description }).lean();
    expect(stored).toMatchObject({
      customerName: 'Dialog Sender',
      customerEmail: 'dialog.sender@example.com',
      paymentMethod: 'Debit Card',
      format: 'html',
    });

    const page = await (
      await pageLoader({
        request: pageRequest('/dashboard/receipts'),
        params: {},
        context,
      } as never)
    ).json();
    expect(page.receipts[0].receiptNumber).toBe(toast.description);
    expect(page.preview.html).toContain(toast.description);
  });

  it('downloads each format as a real file and serves a print page', async () => {
    const parcel = await makeParcel();
    const { receipt } = await (await generate(parcel.id, { format: 'html' })).json();
    const expectations = {
      pdf: ['application/pdf', '%PDF-'],
      html: ['text/html; charset=utf-8', '<!DOCTYPE html>'],
      txt: ['text/plain; charset=utf-8', receipt.receiptNumber],
    };
    for (const [format, [type, start]] of Object.entries(expectations)) {
      const res = await downloadLoader({
        request: pageRequest(`/dashboard/receipts/${receipt.id}/download?format=${format}`),
        params: { receiptId: receipt.id },
        context,
      } as never);
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe(type);
      expect(res.headers.get('Content-Disposition')).toBe(
        `attachment; filename="receipt-${receipt.receiptNumber}.${format}"`,
      );
      const body = Buffer.from(await res.arrayBuffer()).toString('latin1');
      expect(format === 'txt' ? body.includes(start!) : body.startsWith(start!)).toBe(true);
    }
    const own = await downloadLoader({
      request: pageRequest(`/dashboard/receipts/${receipt.id}/download`),
      params: { receiptId: receipt.id },
      context,
    } as never);
    expect(own.headers.get('Content-Disposition')).toContain('.html"');

    const missing = await downloadLoader({
      request: pageRequest('/dashboard/receipts/x/download'),
      params: { receiptId: '0123456789abcdef01234567' },
      context,
    } as never).catch((r: Response) => r);
    expect((missing as Response).status).toBe(404);

    const print = await printLoader({
      request: pageRequest(`/dashboard/receipts/${receipt.id}/print`),
      params: { receiptId: receipt.id },
      context,
    } as never);
    const html = await print.text();
    expect(html).toContain(receipt.receiptNumber);
    expect(html).toMatch(/<button[^>]*>Print<\/button>/);
    expect(html).toContain('window.print()');
  });

  /** The receipts list's action for one receipt (`email`, `downloaded`, `printed`). */
  const onReceipt = (intent: string, receiptId: string) =>
    pageAction({
      request: pageRequest('/dashboard/receipts', { intent, receiptId }),
      params: {},
      context,
    } as never);

  it('e-mails a receipt from the list, and reports a receipt without an address', async () => {
    const parcel = await makeParcel({ sender: { name: 'No Mail', email: '' } });
    const { receipt } = await (await generate(parcel.id)).json();
    const failed = await onReceipt('email', receipt.id);
    await expectToast(failed, {
      type: 'error',
      title: 'Failed to email receipt',
      description: 'This receipt has no customer e-mail address.',
    });

    const withMail = (
      await (await generate(parcel.id, { customerEmail: 'outbox.customer@example.com' })).json()
    ).receipt;
    const sent = await onReceipt('email', withMail.id);
    expect(await toastOf(sent)).toMatchObject({
      type: 'success',
      title: 'Receipt emailed',
      description: `${withMail.receiptNumber} queued for outbox.customer@example.com.`,
    });
    // Test env has no SMTP_URL: the worker writes it to the outbox.
    env.SMTP_URL = undefined;
    expect((await emailOutcome(withMail.id))?.emailedAt).toEqual(expect.any(String));

    const downloaded = await onReceipt('downloaded', withMail.id);
    expect(await toastOf(downloaded)).toMatchObject({ title: 'Receipt downloaded' });
    const printed = await onReceipt('printed', withMail.id);
    expect(await toastOf(printed)).toMatchObject({ title: 'Print receipt' });
  });
});
