import { API_ERROR_CODE_MEANINGS, API_ERROR_CODES } from '~/schemas/api-error-codes';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactNode } from 'react';
import { apiRoute } from '~/http/api.server';
import { conditionalResponse } from '~/lib/http-cache.server';
import { env } from '~/lib/env.server';
import { openApiDocument } from '~/api-routes.server';
import { webhookRetrySchedule } from '~/http/openapi.server';
import { declared, file } from '~/http/api-operation.server';
import { EXAMPLE_TRACKING_NUMBER } from '~/schemas/api-examples';
import { webhookPayloadName } from '~/schemas/api-responses';
import type { WebhookEventType } from '~/schemas/integrations';

/**
 * GET /api/docs: a guide for integrators and the API reference, rendered on the server from the
 * OpenAPI document as one page of HTML and CSS (no scripts, nothing from another site).
 */
type Json = Record<string, unknown>;

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#111827;background:#f9fafb}
main{max-width:60rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.8rem;margin:0 0 .5rem}h2{margin-top:2.5rem;border-bottom:1px solid #d1d5db}
h3{font-size:1.05rem;margin:0;font-family:ui-monospace,monospace;word-break:break-all}
h3.step{font-family:inherit;margin-top:1rem}
section.op{background:#fff;border:1px solid #e5e7eb;border-radius:.5rem;padding:1rem;margin:1rem 0}
.m{display:inline-block;min-width:4.5rem;font-weight:700;text-transform:uppercase}
.get{color:#1d4ed8}.post{color:#047857}.put{color:#b45309}.delete{color:#b91c1c}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border:1px solid #e5e7eb;padding:.3rem .5rem;text-align:left;vertical-align:top}
pre{background:#f3f4f6;padding:.5rem;overflow:auto;font-size:.8rem;max-height:24rem}
nav ul{columns:2;padding-left:1.2rem}a{color:#1d4ed8}
details summary{cursor:pointer;font-weight:600}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
`;

function schemaText(schema: unknown) {
  return JSON.stringify(schema, null, 2);
}

const GUIDE_SECTIONS = [
  ['getting-started', 'Getting started'],
  ['verifying-webhooks', 'Verifying a webhook'],
  ['retries', 'Retries'],
  ['errors', 'Error codes'],
  ['compatibility', 'Compatibility'],
];

function Guide({ doc }: { doc: Json }) {
  const base = String((doc.servers as Json[])[0]!.url).replace(/\/$/, '');
  const steps = [
    {
      title: '1. Create an API key',
      text: 'An admin creates one under Settings → API keys in the dashboard, or through the API with a login token. The key (sk_…) is shown once: keep it in your secrets store.',
      code: `curl -X POST ${base}/api/auth/login -H 'Content-Type: application/json' \\
  -d '{"username":"admin","password":"…"}'
# → {"token":"…","user":{…}}
curl -X POST ${base}/api/api-keys -H 'Authorization: Bearer TOKEN' \\
  -H 'Content-Type: application/json' -d '{"name":"Order system","scopes":["read","write"]}'
# → {"apiKey":{…},"key":"sk_…"}`,
    },
    {
      title: '2. Create a parcel',
      text: 'Only the recipient’s name and address are needed. Send an Idempotency-Key so that a retry after a network failure does not create it twice.',
      code: `curl -X POST ${base}/api/parcels -H 'Authorization: Bearer sk_…' \\
  -H 'Content-Type: application/json' -H 'Idempotency-Key: order-1042' \\
  -d '{"recipient":{"name":"Ada Lovelace","address":"12 Analytical Way","city":"Springfield"},"serviceType":"Express"}'
# → 201 {"parcel":{"id":"…","trackingNumber":"${EXAMPLE_TRACKING_NUMBER}","status":"Pending",…}}`,
    },
    {
      title: '3. Add a tracking event',
      text: "The parcel's status follows its newest event. timeZone is the IANA zone of the place (America/Chicago).",
      code: `curl -X POST ${base}/api/tracking/PARCEL_ID/events -H 'Authorization: Bearer sk_…' \\
  -H 'Content-Type: application/json' \\
  -d '{"status":"In Transit","location":"Chicago Hub","timeZone":"America/Chicago"}'
# → 201 {"event":{…}}`,
    },
    {
      title: '4. Track it',
      text: 'No token: this is what the public tracking page and other sites use.',
      code: `curl ${base}/api/tracking/track/${EXAMPLE_TRACKING_NUMBER}
# → {"parcel":{"trackingNumber":"${EXAMPLE_TRACKING_NUMBER}","status":"In Transit",…},"events":[…]}`,
    },
  ];
  return (
    <>
      <h2 id="getting-started">Getting started</h2>
      {steps.map((step) => (
        <section key={step.title} aria-label={step.title}>
          <h3 className="step">{step.title}</h3>
          <p>{step.text}</p>
          <pre tabIndex={0}>{step.code}</pre>
        </section>
      ))}
      <h2 id="verifying-webhooks">Verifying a webhook</h2>
      <p>
        Each event is a POST of <code>{'{"type", "timestamp", "data"}'}</code> signed per the
        Standard Webhooks specification (headers webhook-id, webhook-timestamp and
        webhook-signature). Verify the raw body with the endpoint’s whsec_ secret before trusting
        it, and use webhook-id to ignore a delivery you already handled. In Node, with the{' '}
        <code>standardwebhooks</code> package:
      </p>
      <pre tabIndex={0}>{`import express from 'express';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.COURIER_WEBHOOK_SECRET); // whsec_…
const app = express();

app.post('/courier-events', express.text({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    // Checks the signature and that webhook-timestamp is within 5 minutes.
    event = webhook.verify(req.body, req.headers);
  } catch {
    return res.status(400).send('Invalid signature');
  }
  if (event.type === 'parcel.status_changed') {
    console.log(event.data.parcel.trackingNumber, event.data.previousStatus, '→', event.data.parcel.status);
  }
  res.sendStatus(204);
});`}</pre>
      <h2 id="retries">Retries</h2>
      <p>
        A delivery succeeds when the endpoint answers 2xx within {env.WEBHOOK_TIMEOUT_MS / 1000} s.
        Anything else is tried again, with the same webhook-id and body, after each of these waits
        in turn; after the last, the delivery is failed (it stays in GET
        /api/webhooks/&#123;id&#125;/deliveries, and POST …/redeliver sends it again):
      </p>
      <ol className="retries">
        {webhookRetrySchedule().map((wait, i) => (
          <li key={i}>{wait}</li>
        ))}
      </ol>
      <h2 id="errors">Error codes</h2>
      <p>
        Every error answer is JSON: <code>{'{"error", "message", "code"}'}</code>.{' '}
        <code>error</code> and <code>message</code> are the same text, for people; branch on{' '}
        <code>code</code>, a stable snake_case name. Validation errors (400) add{' '}
        <code>details</code>, the messages per field.
      </p>
      <Table columns={['code', 'Meaning']}>
        {API_ERROR_CODES.map((code) => (
          <tr key={code}>
            <td>
              <code>{code}</code>
            </td>
            <td>{API_ERROR_CODE_MEANINGS[code]}</td>
          </tr>
        ))}
      </Table>
      <h2 id="compatibility">Compatibility</h2>
      <p>
        Fields are added, never renamed or removed, and the meaning of a field or a code does not
        change: ignore fields you do not know, and your client keeps working. New event types, codes
        and endpoints may appear at any time. Anything else would be a new version of the API,
        announced in this document’s info.version.
      </p>
    </>
  );
}

function Table({
  caption,
  columns,
  children,
}: {
  caption?: string;
  columns: string[];
  children: ReactNode;
}) {
  return (
    <table>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

function Operation({
  method,
  path,
  op,
  doc,
}: {
  method: string;
  path: string;
  op: Json;
  doc: Json;
}) {
  const parameters = (op.parameters as Json[] | undefined) ?? [];
  const components = (doc.components as Json).parameters as Record<string, Json>;
  const resolved = parameters.map((p) =>
    typeof p.$ref === 'string' ? components[p.$ref.split('/').pop()!]! : p,
  );
  const requestBody = op.requestBody as Json | undefined;
  const body = requestBody?.content as Json | undefined;
  const responses = op.responses as Record<string, Json>;
  const secured = ((op.security as unknown[]) ?? []).length > 0;
  return (
    <section className="op" id={String(op.operationId)} aria-labelledby={`${op.operationId}-h`}>
      <h3 id={`${op.operationId}-h`}>
        <span className={`m ${method}`}>{method}</span> {path}
      </h3>
      <p>
        {String(op.summary)}
        {op.description ? ` ${String(op.description)}` : ''}
        {secured ? ' Authorization: Bearer token or API key.' : ' Public: no token.'}
      </p>
      {resolved.length ? (
        <Table caption="Parameters" columns={['Parameter', 'In', 'Required', 'Schema']}>
          {resolved.map((p) => (
            <tr key={`${p.in}-${p.name}`}>
              <td>
                <code>{String(p.name)}</code>
              </td>
              <td>{String(p.in)}</td>
              <td>{p.required ? 'yes' : 'no'}</td>
              <td>
                <code>{JSON.stringify(p.schema)}</code>
                {p.description ? <div>{String(p.description)}</div> : null}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      {body
        ? Object.entries(body).map(([type, content]) => (
            <details key={type}>
              <summary>Request body ({type})</summary>
              {requestBody?.description ? <p>{String(requestBody.description)}</p> : null}
              <pre tabIndex={0}>{schemaText((content as Json).schema)}</pre>
            </details>
          ))
        : null}
      <details>
        <summary>Responses</summary>
        <ul>
          {Object.entries(responses).map(([status, response]) => {
            const content = response.content as Json | undefined;
            return (
              <li key={status}>
                <strong>{status}</strong> {String(response.description)}
                {content
                  ? Object.entries(content).map(([type, body]) => (
                      <div key={type}>
                        {type === 'application/json' ? null : <code>{type}</code>}
                        <pre tabIndex={0}>{schemaText((body as Json).schema)}</pre>
                      </div>
                    ))
                  : null}
              </li>
            );
          })}
        </ul>
      </details>
    </section>
  );
}

function Docs({ origin }: { origin: string }) {
  const doc = openApiDocument(origin);
  const info = doc.info as Json;
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const tags = (doc.tags as Json[]).map((t) => String(t.name));
  const schemas = (doc.components as Json).schemas as Record<string, unknown>;
  const ops = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${String(info.title)} reference`}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>
          <h1>{String(info.title)}</h1>
          <p>{String(info.description)}</p>
          <p>
            Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI{' '}
            {String(doc.openapi)}).
          </p>
          <nav aria-label="Sections">
            <ul>
              {[
                ...GUIDE_SECTIONS,
                ...tags.map((tag) => [`tag-${tag.replace(/\W+/g, '-')}`, tag]),
                ['webhooks', 'Webhook events'],
                ['schemas', 'Schemas'],
              ].map(([id, label]) => (
                <li key={id}>
                  <a href={`#${id}`}>{label}</a>
                </li>
              ))}
            </ul>
          </nav>
          <Guide doc={doc} />
          {tags.map((tag) => (
            <div key={tag}>
              <h2 id={`tag-${tag.replace(/\W+/g, '-')}`}>{tag}</h2>
              {ops
                .filter(({ op }) => (op.tags as string[]).includes(tag))
                .map(({ path, method, op }) => (
                  <Operation
                    key={`${method} ${path}`}
                    method={method}
                    path={path}
                    op={op}
                    doc={doc}
                  />
                ))}
            </div>
          ))}
          <h2 id="webhooks">Webhook events</h2>
          <p>
            Each delivery is a POST of <code>{'{"type", "timestamp", "data"}'}</code> with the
            headers webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks).
          </p>
          <ul>
            {Object.entries(doc.webhooks as Record<string, { post: Json }>).map(([type, item]) => (
              <li key={type}>
                <code>{type}</code>: {String(item.post.summary)} (
                <a href={`#schema-${webhookPayloadName(type as WebhookEventType)}`}>payload</a>)
              </li>
            ))}
          </ul>
          <h2 id="schemas">Schemas</h2>
          {Object.entries(schemas).map(([name, schema]) => (
            <details key={name} id={`schema-${name}`}>
              <summary>{name}</summary>
              <pre tabIndex={0}>{schemaText(schema)}</pre>
            </details>
          ))}
        </main>
      </body>
    </html>
  );
}

// The page names the server its examples call: PUBLIC_URL, or the origin it was asked at.
const pages = new Map<string, string>();

export const { loader, action } = apiRoute({
  GET: declared(
    {
      access: 'public',
      etag: true,
      summary: 'This reference as a page, with a guide',
      description:
        'This document as an HTML page, drawn on the server with nothing from another site: a guide (getting started, verifying webhooks, retries, error codes, compatibility), then every operation and schema.',
      contentType: 'text/html',
      responses: {
        200: { ...file('text/html'), example: '<!DOCTYPE html><html lang="en">…</html>' },
      },
    },
    ({ request }) => {
      const origin = new URL(request.url).origin;
      let html = pages.get(origin);
      if (!html) {
        html = `<!DOCTYPE html>${renderToStaticMarkup(<Docs origin={origin} />)}`;
        if (pages.size < 16) pages.set(origin, html);
      }
      return conditionalResponse(request, html, {
        headers: new Headers({
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'public, max-age=300',
        }),
      });
    },
  ),
});
