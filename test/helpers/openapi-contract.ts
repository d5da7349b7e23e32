/**
 * The contract check: every exchange of the REST test suites (rest-harness.ts) is validated against
 * the OpenAPI document the server serves, by independent validators: the document itself by
 * @seriousme/openapi-schema-validator (OpenAPI 3.1), requests by openapi-backend (operation
 * matching, path, query and header parameters, bodies), responses (bodies and headers) by Ajv
 * against the document's own schemas. Both use Ajv's JSON Schema 2020-12 dialect, the dialect of
 * OpenAPI 3.1 (openapi-backend's default Ajv is draft-07).
 *
 * An exchange breaks the contract when the server answers a status its operation does not list, a
 * body that is not its documented type or schema, a header the response does not declare, when it
 * refuses as invalid (400) a request the document allows, or accepts (2xx) one the document
 * refuses. Requests outside every operation may only get 404 or 405 (or the answers that come
 * before routing). Schema-typed plugin routes (`/api/v1/plugins/...`) are in the document and
 * checked like the others; loose plugin routes (without schemas) are outside it and not checked.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/** What one request and its answer were. */
export interface Exchange {
  method: string;
  /** Path and query string, as requested. */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string | Buffer;
  status: number;
  responseHeaders: Headers | Record<string, string>;
  text: string;
}

/**
 * Headers every answer may carry that are about the transport or the representation, not the
 * API: they are not declared per operation (docs/rest-api.md lists them once).
 */
const GENERIC_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-type',
  'date',
  'vary',
  'cache-control',
  'x-content-type-options',
  'referrer-policy',
  'content-security-policy',
  'x-accel-buffering',
  // in a fleet, an answer another node gave (docs/rest-api.md)
  'x-wakit-node',
]);

function isGeneric(name: string): boolean {
  return GENERIC_HEADERS.has(name) || name.startsWith('access-control-'); // CORS
}

/**
 * Refusals (400) that JSON Schema cannot state, each described in words in the document: a paging
 * cursor this server did not issue, `confirm` that must equal the client's name, the address
 * policy of webhook URLs (resolved addresses, not spelling) and their configured number per
 * client, poll options that the poll does not have, a `sendAt` too far back or ahead of now. Recognised by the paths of the problem's `errors` or its `details`.
 */
function beyondSchema(problem: unknown): boolean {
  const p = problem as { errors?: { path: string; message: string }[]; details?: Json };
  if (p?.details && Array.isArray(p.details.unknown)) return true;
  return (p?.errors ?? []).some(
    ({ path, message }) =>
      /^(query\.)?(cursor|before)$/.test(path) ||
      path === 'query.confirm' ||
      (path === 'sendAt' && /in the past|too far ahead/.test(message)) ||
      (path === 'webhooks' && message.startsWith('at most')) ||
      (/^webhooks\.\d+\.url$/.test(path) && message.includes('addresses are refused')),
  );
}

/** Answers a request may get before routing, whatever its path. */
const BEFORE_ROUTING = new Set([400, 404, 405, 417, 429, 431, 503]);

/** Counts for the closing note: printed when the test process exits. */
export const contractCounts = {
  exchanges: 0,
  skipped: 0,
  mismatches: 0,
  operations: new Set<string>(),
};
let reported = false;

function reportOnExit(): void {
  if (reported) return;
  reported = true;
  process.once('exit', () => {
    if (contractCounts.exchanges === 0) return;
    console.log(
      `  OpenAPI contract: ${contractCounts.exchanges} exchanges of ${contractCounts.operations.size} operations validated against the served document (${contractCounts.skipped} plugin-route exchanges outside it), ${contractCounts.mismatches} mismatches`,
    );
  });
}

function headerRecord(headers: Exchange['responseHeaders']): Record<string, string> {
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `/a/{b}` → a regular expression matching exactly that path (case and slashes count). */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * One Ajv (2020-12) per set of options: openapi-backend asks for a new one for every validator it
 * builds, and each new instance compiles the meta-schemas again (~0.7 s per operation).
 */
const ajvs = new Map<string, Ajv2020.default>();
function sharedAjv(options: object): Ajv2020.default {
  const key = JSON.stringify(options);
  let ajv = ajvs.get(key);
  if (!ajv) {
    ajv = new Ajv2020.default({ ...options, strict: false, allErrors: true, logger: false });
    addFormats.default(ajv);
    // OpenAPI's own formats, which openapi-backend adds to its default Ajv, and zod's base64
    // (its pattern checks it)
    for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'password', 'base64'])
      ajv.addFormat(format, true);
    ajvs.set(key, ajv);
  }
  return ajv;
}

export class ContractChecker {
  static readonly #cache = new Map<string, Promise<ContractChecker>>();

  /** The checker of a document (built once per distinct document). */
  static for(doc: Json): Promise<ContractChecker> {
    const key = JSON.stringify(doc);
    let checker = ContractChecker.#cache.get(key);
    if (!checker) {
      checker = ContractChecker.#build(doc);
      ContractChecker.#cache.set(key, checker);
    }
    return checker;
  }

  static async #build(doc: Json): Promise<ContractChecker> {
    // The document itself first: valid OpenAPI 3.1 (openapi-backend's own check knows only 3.0).
    const validity = await new Validator().validate(structuredClone(doc));
    if (!validity.valid) {
      throw new Error(
        `not a valid OpenAPI document: ${JSON.stringify(validity.errors).slice(0, 2000)}`,
      );
    }
    const api = new OpenAPIBackend({
      definition: structuredClone(doc) as unknown as Document,
      validate: true,
      strict: true,
      // quick: validators compiled on first use, not all at once (the document was checked above)
      quick: true,
      ignoreTrailingSlashes: false,
      customizeAjv: (_ajv, options) => sharedAjv(options),
    });
    await api.init();
    reportOnExit();
    return new ContractChecker(api, doc);
  }

  /** Responses are validated straight against the document: each schema compiled once, by pointer. */
  readonly #ajv = sharedAjv({});
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #docId: string;

  private constructor(
    private readonly api: OpenAPIBackend,
    private readonly doc: Json,
  ) {
    this.#docId = `doc${ContractChecker.#cache.size}.json`;
    this.#ajv.addSchema(doc, this.#docId);
  }

  #validate(pointer: string, value: unknown): string[] {
    let validate = this.#validators.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `${this.#docId}#${pointer}` });
      this.#validators.set(pointer, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  }

  /** The JSON pointer of the response object for `status` (a shared one followed). */
  #responsePointer(method: string, template: string, status: number): string | undefined {
    const escape = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
    const paths = this.doc.paths as Record<string, Record<string, { responses: Json }>>;
    const answer = paths[template]?.[method]?.responses[String(status)] as Json | undefined;
    if (!answer) return undefined;
    if (typeof answer.$ref === 'string') return answer.$ref.slice(1);
    return `/paths/${escape(template)}/${method}/responses/${status}`;
  }

  /** What the response of an exchange breaks: its status, type, body schema and headers. */
  #responseErrors(operation: Operation, exchange: Exchange, what: string): string[] {
    const method = operation.method.toLowerCase();
    const pointer = this.#responsePointer(method, operation.path, exchange.status);
    if (!pointer) return [`${what}: status not documented for ${operation.operationId}`];
    let response: unknown = this.doc;
    for (const part of pointer.slice(1).split('/'))
      response = (response as Json)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    const { content, headers: declared = {} } = response as {
      content?: Record<string, Json>;
      headers?: Record<string, Json>;
    };
    const problems: string[] = [];
    const headers = headerRecord(exchange.responseHeaders);
    const type = (headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
    if (exchange.text !== '' && exchange.method !== 'HEAD') {
      const escaped = type.replaceAll('/', '~1');
      if (!content?.[type]) problems.push(`${what}: content type ${type} not documented`);
      else if (type.endsWith('json'))
        for (const e of this.#validate(
          `${pointer}/content/${escaped}/schema`,
          parseJson(exchange.text),
        ))
          problems.push(`${what}: body ${e}`);
    }
    const names = new Map(Object.keys(declared).map((name) => [name.toLowerCase(), name]));
    for (const [name, value] of Object.entries(headers)) {
      if (isGeneric(name)) continue;
      const declaredName = names.get(name);
      if (!declaredName) problems.push(`${what}: header ${name} not declared`);
      else
        for (const e of this.#validate(`${pointer}/headers/${declaredName}/schema`, value))
          problems.push(`${what}: header ${name}: ${value} ${e}`);
    }
    for (const [lower, name] of names)
      if (declared[name]?.required === true && headers[lower] === undefined)
        problems.push(`${what}: required header ${name} missing`);
    return problems;
  }

  /** The operation of a request, only when its path is exactly one of the document's. */
  operation(method: string, path: string): Operation | undefined {
    let operation: Operation | undefined;
    try {
      operation = this.api.matchOperation({ method, path, headers: {} });
    } catch {
      return undefined; // a path that is not a URI (`%E0%A4%A`): no operation takes it
    }
    if (!operation || !templatePattern(operation.path).test(path)) return undefined;
    return operation;
  }

  /** Every operation of the document as `[method, path template, operationId]`. */
  operations(): [string, string, string][] {
    const out: [string, string, string][] = [];
    for (const [path, item] of Object.entries(
      this.doc.paths as Record<string, Record<string, Json>>,
    ))
      for (const [method, operation] of Object.entries(item))
        out.push([method, path, String(operation.operationId)]);
    return out;
  }

  /** Whether the document allows this request (parameters, headers, body and its type). */
  requestErrors(operation: Operation, exchange: Exchange, path: string, query: string): string[] {
    const headers = Object.fromEntries(
      Object.entries(exchange.requestHeaders).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const raw = exchange.requestBody?.toString();
    const hasBody = raw !== undefined && raw !== '';
    if (hasBody && !operation.requestBody) return ['a body where the operation takes none'];
    if (
      hasBody &&
      !/^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(headers['content-type'] ?? '')
    )
      return [`a body of type ${headers['content-type'] ?? '(none)'}`];
    const body = hasBody ? (parseJson(raw) ?? raw) : undefined;
    let result;
    try {
      result = this.api.validateRequest(
        { method: exchange.method, path, query, headers, body },
        operation,
      );
    } catch (error) {
      return [`not a valid request: ${String(error)}`]; // e.g. a path parameter that is not URI-encoded
    }
    return (result.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`.trim());
  }

  /** What breaks the contract in this exchange (empty: nothing). */
  check(exchange: Exchange): string[] {
    const problems = this.#check(exchange);
    if (problems.length > 0) contractCounts.mismatches++;
    return problems;
  }

  #check(exchange: Exchange): string[] {
    const [path = '', query = ''] = exchange.url.split('?');
    // loose plugin routes (no schemas) are not in the document; schema-typed ones are checked
    if (path.startsWith('/api/v1/plugins/') && !this.operation(exchange.method, path)) {
      contractCounts.skipped++;
      return [];
    }
    contractCounts.exchanges++;
    const what = `${exchange.method} ${exchange.url} → ${exchange.status}`;
    const operation = this.operation(exchange.method, path);
    if (!operation) {
      return BEFORE_ROUTING.has(exchange.status) ? [] : [`${what}: no operation describes it`];
    }
    contractCounts.operations.add(operation.operationId ?? '');
    const problems = this.#responseErrors(operation, exchange, what);
    const requestErrors = this.requestErrors(operation, exchange, path, query);
    if (
      requestErrors.length === 0 &&
      exchange.status === 400 &&
      !beyondSchema(parseJson(exchange.text))
    ) {
      problems.push(
        `${what}: refuses a request the document allows: ${exchange.text.slice(0, 300)}`,
      );
    }
    if (requestErrors.length > 0 && exchange.status >= 200 && exchange.status < 300) {
      problems.push(`${what}: accepts a request the document refuses: ${requestErrors.join('; ')}`);
    }
    return problems;
  }
}
