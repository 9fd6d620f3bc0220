import { renderToStaticMarkup } from 'react-dom/server';
import { apiRoute } from '~/lib/api.server';
import { conditionalResponse } from '~/lib/http-cache.server';
import { openApiDocument } from '~/services/openapi.server';

/**
 * GET /api/docs: the API reference, rendered on the server from the OpenAPI document as one
 * page of HTML and CSS (no scripts, nothing from another site).
 */
type Json = Record<string, unknown>;

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#111827;background:#f9fafb}
main{max-width:60rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.8rem;margin:0 0 .5rem}h2{margin-top:2.5rem;border-bottom:1px solid #d1d5db}
h3{font-size:1.05rem;margin:0;font-family:ui-monospace,monospace;word-break:break-all}
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

function Operation({ method, path, op }: { method: string; path: string; op: Json }) {
  const parameters = (op.parameters as Json[] | undefined) ?? [];
  const components = (openApiDocument().components as Json).parameters as Record<string, Json>;
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
        <table>
          <caption className="sr-only">Parameters</caption>
          <thead>
            <tr>
              <th scope="col">Parameter</th>
              <th scope="col">In</th>
              <th scope="col">Required</th>
              <th scope="col">Schema</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      ) : null}
      {body
        ? Object.entries(body).map(([type, content]) => (
            <details key={type}>
              <summary>Request body ({type})</summary>
              {requestBody?.description ? <p>{String(requestBody.description)}</p> : null}
              <pre>{schemaText((content as Json).schema)}</pre>
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
                        <pre>{schemaText((body as Json).schema)}</pre>
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

function Docs() {
  const doc = openApiDocument();
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
              {tags.map((tag) => (
                <li key={tag}>
                  <a href={`#tag-${tag.replace(/\W+/g, '-')}`}>{tag}</a>
                </li>
              ))}
              <li>
                <a href="#webhooks">Webhook events</a>
              </li>
              <li>
                <a href="#schemas">Schemas</a>
              </li>
            </ul>
          </nav>
          {tags.map((tag) => (
            <div key={tag}>
              <h2 id={`tag-${tag.replace(/\W+/g, '-')}`}>{tag}</h2>
              {ops
                .filter(({ op }) => (op.tags as string[]).includes(tag))
                .map(({ path, method, op }) => (
                  <Operation key={`${method} ${path}`} method={method} path={path} op={op} />
                ))}
            </div>
          ))}
          <h2 id="webhooks">Webhook events</h2>
          <p>
            Each delivery is a POST of <code>{'{"type", "timestamp", "data"}'}</code> with the
            headers webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks).
          </p>
          <ul>
            {Object.keys(doc.webhooks as Json).map((type) => (
              <li key={type}>
                <code>{type}</code>
              </li>
            ))}
          </ul>
          <h2 id="schemas">Schemas</h2>
          {Object.entries(schemas).map(([name, schema]) => (
            <details key={name} id={`schema-${name}`}>
              <summary>{name}</summary>
              <pre>{schemaText(schema)}</pre>
            </details>
          ))}
        </main>
      </body>
    </html>
  );
}

let html: string | null = null;

export const { loader, action } = apiRoute({
  GET: ({ request }) => {
    html ??= `<!DOCTYPE html>${renderToStaticMarkup(<Docs />)}`;
    return conditionalResponse(request, html, {
      headers: new Headers({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
      }),
    });
  },
});
