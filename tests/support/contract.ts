import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * The API's contract as its OpenAPI document states it, checked against a real request and its
 * answer: the path and method must be documented (else the server must say 404 or 405), the
 * status documented, the answer's media type and body valid against the document's schema; and a
 * request that the document refuses (a path or query parameter, or a JSON body) must not be
 * accepted (2xx). callRoute runs every /api request of the integration suite through it, so that
 * the suite's real traffic is the contract test. ajv (JSON Schema 2020-12, the document's
 * dialect) over the document itself, compiled once per worker.
 */
type Json = Record<string, unknown>;
type Operation = {
  parameters?: Json[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
};
type Route = {
  template: string;
  pattern: RegExp;
  names: string[];
  methods: Record<string, Operation>;
};

const DOC_ID = 'https://contract.test/openapi.json';

type Contract = { ajv: Ajv2020; doc: Json; routes: Route[] };
let built: Contract | null = null;

// The app's modules load on the first check, not with this file: a test file may set the
// environment before any of them reads it.
async function contract(): Promise<Contract> {
  if (built) return built;
  const { openApiDocument } = await import('~/api-routes.server');
  const doc = structuredClone(openApiDocument('http://localhost')) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, DOC_ID);
  const routes = Object.entries(doc.paths as Record<string, Record<string, Operation>>)
    .map(([template, methods]) => {
      const names: string[] = [];
      const source = template
        .split(/(\{\w+\})/)
        .map((part) => {
          const name = /^\{(\w+)\}$/.exec(part)?.[1];
          if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(name);
          return '([^/]+)';
        })
        .join('');
      return { template, pattern: new RegExp(`^${source}$`), names, methods };
    })
    // A fixed segment wins over a parameter, as in the router (/api/parcels/import, not {id}).
    .sort((a, b) => a.names.length - b.names.length);
  built = { ajv, doc, routes };
  return built;
}

const pointer = (...parts: string[]) =>
  `${DOC_ID}#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** Checks a value against the schema at a place in the document: null when valid, else why. */
export async function checkAgainstDocument(path: string[], value: unknown): Promise<string | null> {
  const { ajv } = await contract();
  const validate = ajv.getSchema(pointer(...path));
  if (!validate) return `no schema at ${path.join(' ')}`;
  return validate(value) ? null : ajv.errorsText(validate.errors, { dataVar: 'value' });
}

function resolveParameter(doc: Json, parameter: Json): Json {
  const ref = parameter.$ref;
  if (typeof ref !== 'string') return parameter;
  const name = ref.split('/').pop()!;
  return ((doc.components as Json).parameters as Record<string, Json>)[name]!;
}

/** A query or path value read as its schema's type, as the server reads the text. */
function typed(value: string, schema: Json | undefined): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim()))
    return Number(value);
  return value;
}

function mediaTypeOf(contentType: string | null) {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function documentedMediaType(documented: string[], actual: string) {
  return documented.find(
    (type) => type === actual || (type.endsWith('/*') && actual.startsWith(type.slice(0, -1))),
  );
}

/** What the request and its answer do that the document does not say. */
export async function contractViolations(
  request: Request,
  response: Response,
  body?: unknown,
): Promise<string[]> {
  const url = new URL(request.url);
  const method = request.method.toLowerCase();
  const where = `${request.method} ${url.pathname}${url.search}`;
  const { doc, routes } = await contract();
  const route = routes.find((r) => r.pattern.test(url.pathname));
  if (!route)
    return response.status === 404
      ? []
      : [`${where}: the path is not documented, yet the answer is ${response.status}`];
  const operation = route.methods[method === 'head' ? 'get' : method];
  if (!operation) {
    if (response.status === 405) return [];
    if (method === 'options' && response.status === 204) return [];
    return [`${where}: ${method} is not documented for ${route.template}`];
  }
  const opPath = ['paths', route.template, method === 'head' ? 'get' : method];
  const violations: string[] = [];

  // The request, as the document describes it.
  const refused: string[] = [];
  const parameters = (operation.parameters ?? []).map((p) => resolveParameter(doc, p));
  const values = route.pattern.exec(url.pathname)!.slice(1);
  for (const [i, name] of route.names.entries()) {
    const index = parameters.findIndex((p) => p.in === 'path' && p.name === name);
    const problem = await checkAgainstDocument(
      [...opPath, 'parameters', String(index), 'schema'],
      decodeURIComponent(values[i]!),
    );
    if (problem) refused.push(`path parameter ${name}: ${problem}`);
  }
  for (const [name, value] of url.searchParams) {
    const index = (operation.parameters ?? []).findIndex(
      (p) => !p.$ref && p.in === 'query' && p.name === name,
    );
    if (index < 0) continue;
    const schema = parameters[index]!.schema as Json;
    const problem = await checkAgainstDocument(
      [...opPath, 'parameters', String(index), 'schema'],
      typed(value, schema),
    );
    if (problem) refused.push(`query parameter ${name}: ${problem}`);
  }
  const requestType = mediaTypeOf(request.headers.get('content-type'));
  if (body !== undefined && requestType === 'application/json') {
    const content = operation.requestBody?.content ?? {};
    if (!content['application/json']) refused.push('a JSON body, which it does not take');
    else {
      const problem = await checkAgainstDocument(
        [...opPath, 'requestBody', 'content', 'application/json', 'schema'],
        body,
      );
      if (problem) refused.push(`body: ${problem}`);
    }
  }
  if (
    refused.length &&
    ((response.status >= 200 && response.status < 300) || response.status === 304)
  )
    violations.push(
      `${where}: answered ${response.status} to a request the document refuses (${refused.join('; ')})`,
    );

  // The answer.
  const status = String(response.status);
  const documented =
    operation.responses[status] ??
    operation.responses[`${status[0]}XX`] ??
    operation.responses.default;
  if (!documented) {
    violations.push(`${where}: status ${status} is not documented`);
    return violations;
  }
  const key = operation.responses[status] ? status : `${status[0]}XX`;
  const text = response.status === 304 || method === 'head' ? '' : await response.clone().text();
  const content = documented.content;
  if (!content) {
    if (text) violations.push(`${where}: ${status} has a body, and the document gives it none`);
    return violations;
  }
  const actualType = mediaTypeOf(response.headers.get('content-type'));
  const type = documentedMediaType(Object.keys(content), actualType);
  if (!type) {
    violations.push(
      `${where}: ${status} is ${actualType || 'untyped'}, documented as ${Object.keys(content).join(', ')}`,
    );
    return violations;
  }
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      violations.push(`${where}: ${status} is not JSON`);
      return violations;
    }
    const problem = await checkAgainstDocument(
      [...opPath, 'responses', key, 'content', type, 'schema'],
      parsed,
    );
    if (problem) violations.push(`${where}: ${status} answer: ${problem}`);
  }
  return violations;
}
