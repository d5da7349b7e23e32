/**
 * A test fixture speaking the subset of the Google Cloud Storage JSON API that
 * `@google-cloud/storage` 7.x uses for wakit's session store: multipart, media and resumable
 * uploads, `alt=media` downloads with `x-goog-hash`, object metadata GET/PATCH, DELETE, list with
 * prefix/delimiter/pagination, generation preconditions (412 with a GCS-shaped JSON body), 404s,
 * and generations that increase on every write. Buckets exist implicitly.
 *
 * Paths are accepted with and without the `/storage/v1` prefix: with `apiEndpoint` the client adds
 * it, with `STORAGE_EMULATOR_HOST` it uses the variable as its base URL verbatim.
 *
 * It is a fixture, not part of the package. Faults can be injected with `fault()`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { CRC32C, Storage } from '@google-cloud/storage';

export interface FakeObject {
  bucket: string;
  name: string;
  data: Buffer;
  generation: number;
  metageneration: number;
  contentType: string;
  metadata: Record<string, string>;
  md5Hash: string;
  crc32c: string;
  timeCreated: string;
  updated: string;
}

export type FaultOp = 'upload' | 'download' | 'metadata' | 'delete' | 'list' | 'patch';

export interface Fault {
  op: FaultOp;
  /** Only requests on object names containing this string (or matching this regexp). */
  match?: string | RegExp;
  /**
   * `fail`: answer `status` (default 503) with a GCS error body. `corrupt`: uploads store flipped
   * bytes (hashes describe what was stored, like a server that faithfully stored damaged data);
   * downloads send flipped bytes with the true hashes. `truncate`: like corrupt, half the bytes.
   * `delay`: wait `delayMs` and then serve normally. `commit-then-fail` (uploads): store the object,
   * then answer `status` (default 412) as if the response was lost and an automatic retry hit the
   * precondition.
   */
  kind: 'fail' | 'corrupt' | 'truncate' | 'delay' | 'commit-then-fail';
  status?: number;
  delayMs?: number;
  /** How many matching requests it applies to (default 1). */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
}

interface ResumableSession {
  bucket: string;
  name: string;
  contentType: string;
  metadata: Record<string, string>;
  preconditions: URLSearchParams;
  received: Buffer;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

export function md5Of(data: Buffer): string {
  return createHash('md5').update(data).digest('base64');
}

export function crc32cOf(data: Buffer): string {
  const crc = new CRC32C();
  crc.update(data);
  return crc.toString();
}

function flip(data: Buffer): Buffer {
  const copy = Buffer.from(data);
  if (copy.length === 0) return Buffer.from([0xff]);
  copy[0] = copy[0] ^ 0xff;
  return copy;
}

export class FakeGcsServer {
  readonly objects = new Map<string, FakeObject>();
  readonly requests: RecordedRequest[] = [];
  private readonly sessions = new Map<string, ResumableSession>();
  private readonly faults: Fault[] = [];
  private nextGeneration = 1_700_000_000_000_000;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeGcsServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGcsServer(server, `http://127.0.0.1:${port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void fake.handle(req, res);
    });
    return fake;
  }

  /** A real client pointed at this server, without credentials and without retries. */
  storage(): Storage {
    return new Storage({
      apiEndpoint: this.url,
      projectId: 'test',
      retryOptions: { autoRetry: false, maxRetries: 0 },
    });
  }

  fault(fault: Fault): void {
    this.faults.push({ times: 1, ...fault });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  get(bucket: string, name: string): FakeObject | undefined {
    return this.objects.get(`${bucket}/${name}`);
  }

  list(bucket: string, prefix = ''): FakeObject[] {
    return [...this.objects.values()]
      .filter((o) => o.bucket === bucket && o.name.startsWith(prefix))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Damage an object at rest: its bytes change, its recorded hashes do not. */
  corruptStored(bucket: string, name: string): void {
    const object = this.get(bucket, name);
    if (!object) throw new Error(`no object ${bucket}/${name}`);
    object.data = flip(object.data);
  }

  /** Write an object directly (fixtures); returns it. */
  put(
    bucket: string,
    name: string,
    data: Buffer,
    metadata: Record<string, string> = {},
  ): FakeObject {
    return this.store(bucket, name, data, 'application/octet-stream', metadata);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- request handling ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const query = Object.fromEntries(url.searchParams);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      status: 0,
    };
    this.requests.push(record);
    try {
      const body = await readBody(req);
      await this.route(req, res, url, body);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      const reason = error instanceof HttpError ? error.reason : 'backendError';
      const message = error instanceof Error ? error.message : String(error);
      sendJson(res, status, {
        error: { code: status, message, errors: [{ message, domain: 'global', reason }] },
      });
    } finally {
      record.status = res.statusCode;
    }
  }

  private async route(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: Buffer,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    const params = url.searchParams;
    const path = url.pathname.replace(/^\/storage\/v1(?=\/)/, '');
    let m: RegExpMatchArray | null;

    if ((m = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(path))) {
      const bucket = decodeURIComponent(m[1]);
      const type = params.get('uploadType');
      if (method === 'POST' && type === 'multipart')
        return this.multipart(req, res, bucket, params, body);
      if (method === 'POST' && type === 'media') {
        const name = params.get('name') ?? '';
        const contentType = req.headers['content-type'] ?? 'application/octet-stream';
        return this.finishUpload(res, bucket, name, body, contentType, {}, params);
      }
      if (method === 'POST' && type === 'resumable')
        return this.startResumable(res, bucket, params, body);
      if (method === 'PUT' && type === 'resumable')
        return this.putResumable(req, res, params, body);
      throw new HttpError(400, `unsupported upload ${method} ${type ?? ''}`, 'invalid');
    }

    if ((m = /^\/b\/([^/]+)\/o$/.exec(path)) && method === 'GET') {
      return this.listObjects(res, decodeURIComponent(m[1]), params);
    }

    if ((m = /^\/b\/([^/]+)\/o\/(.+)$/.exec(path))) {
      const bucket = decodeURIComponent(m[1]);
      const name = decodeURIComponent(m[2]);
      if (method === 'GET' && params.get('alt') === 'media')
        return this.download(res, bucket, name, params);
      if (method === 'GET') {
        await this.applyFault('metadata', name);
        const object = this.existing(bucket, name, params);
        return sendJson(res, 200, this.resource(object));
      }
      if (method === 'PATCH') return this.patch(res, bucket, name, params, body);
      if (method === 'DELETE') {
        await this.applyFault('delete', name);
        this.existing(bucket, name, params);
        this.objects.delete(`${bucket}/${name}`);
        res.writeHead(204).end();
        return;
      }
    }
    throw new HttpError(404, `not found: ${method} ${path}`, 'notFound');
  }

  private async multipart(
    req: IncomingMessage,
    res: ServerResponse,
    bucket: string,
    params: URLSearchParams,
    body: Buffer,
  ): Promise<void> {
    const boundary = /boundary=("?)([^";]+)\1/.exec(req.headers['content-type'] ?? '')?.[2];
    if (!boundary) throw new HttpError(400, 'multipart upload without boundary', 'invalid');
    const parts = parseMultipart(body, boundary);
    if (parts.length !== 2)
      throw new HttpError(400, `expected 2 parts, got ${parts.length}`, 'invalid');
    const meta = JSON.parse(parts[0].body.toString('utf8') || '{}') as ObjectInput;
    const name = params.get('name') ?? meta.name ?? '';
    const contentType = meta.contentType ?? parts[1].contentType ?? 'application/octet-stream';
    return this.finishUpload(
      res,
      bucket,
      name,
      parts[1].body,
      contentType,
      meta.metadata ?? {},
      params,
    );
  }

  private startResumable(
    res: ServerResponse,
    bucket: string,
    params: URLSearchParams,
    body: Buffer,
  ): void {
    const meta = (body.length ? JSON.parse(body.toString('utf8')) : {}) as ObjectInput;
    const name = params.get('name') ?? meta.name ?? '';
    if (!name) throw new HttpError(400, 'object name required', 'required');
    this.checkPreconditions(bucket, name, params);
    const id = randomUUID();
    this.sessions.set(id, {
      bucket,
      name,
      contentType: meta.contentType ?? 'application/octet-stream',
      metadata: meta.metadata ?? {},
      preconditions: params,
      received: Buffer.alloc(0),
    });
    const location = `${this.url}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${id}`;
    res.writeHead(200, { location, 'content-length': 0 }).end();
  }

  private async putResumable(
    req: IncomingMessage,
    res: ServerResponse,
    params: URLSearchParams,
    body: Buffer,
  ): Promise<void> {
    const session = this.sessions.get(params.get('upload_id') ?? '');
    if (!session) throw new HttpError(404, 'no such upload session', 'notFound');
    const range = String(req.headers['content-range'] ?? '');
    const rm = /^bytes (\*|(\d+)-(\d+|\*))\/(\d+|\*)$/.exec(range);
    if (!rm) throw new HttpError(400, `bad Content-Range: ${range}`, 'invalid');
    const total = rm[4] === '*' ? undefined : Number(rm[4]);
    if (rm[1] === '*') {
      // Status query.
      if (total !== undefined && session.received.length === total) {
        return this.finishResumable(req, res, session);
      }
      return incomplete(res, session.received.length);
    }
    const start = Number(rm[2]);
    if (start > session.received.length)
      throw new HttpError(400, 'gap in resumable upload', 'invalid');
    session.received = Buffer.concat([session.received.subarray(0, start), body]);
    const last = rm[3] === '*' || (total !== undefined && session.received.length >= total);
    if (!last) return incomplete(res, session.received.length);
    return this.finishResumable(req, res, session);
  }

  private async finishResumable(
    req: IncomingMessage,
    res: ServerResponse,
    session: ResumableSession,
  ): Promise<void> {
    // The client announces the hashes of what it sent; the real server rejects mismatches.
    const announced = parseHashes(req.headers['x-goog-hash']);
    if (announced.md5 && announced.md5 !== md5Of(session.received)) {
      throw new HttpError(400, 'Provided MD5 hash does not match', 'invalid');
    }
    if (announced.crc32c && announced.crc32c !== crc32cOf(session.received)) {
      throw new HttpError(400, 'Provided CRC32C does not match', 'invalid');
    }
    const id = [...this.sessions].find(([, s]) => s === session)![0];
    this.sessions.delete(id);
    return this.finishUpload(
      res,
      session.bucket,
      session.name,
      session.received,
      session.contentType,
      session.metadata,
      session.preconditions,
    );
  }

  private async finishUpload(
    res: ServerResponse,
    bucket: string,
    name: string,
    data: Buffer,
    contentType: string,
    metadata: Record<string, string>,
    params: URLSearchParams,
  ): Promise<void> {
    if (!name) throw new HttpError(400, 'object name required', 'required');
    const fault = await this.applyFault('upload', name);
    if (fault?.kind === 'corrupt') data = flip(data);
    if (fault?.kind === 'truncate') data = data.subarray(0, Math.floor(data.length / 2));
    this.checkPreconditions(bucket, name, params);
    const object = this.store(bucket, name, data, contentType, metadata);
    if (fault?.kind === 'commit-then-fail') {
      const status = fault.status ?? 412;
      throw new HttpError(
        status,
        'injected failure after commit',
        status === 412 ? 'conditionNotMet' : 'backendError',
      );
    }
    sendJson(res, 200, this.resource(object));
  }

  private async download(
    res: ServerResponse,
    bucket: string,
    name: string,
    params: URLSearchParams,
  ): Promise<void> {
    const fault = await this.applyFault('download', name);
    const object = this.existing(bucket, name, params);
    let data = object.data;
    if (fault?.kind === 'corrupt') data = flip(data);
    if (fault?.kind === 'truncate') data = data.subarray(0, Math.floor(data.length / 2));
    res.writeHead(200, {
      'content-type': object.contentType,
      'content-length': data.length,
      'x-goog-hash': `crc32c=${object.crc32c},md5=${object.md5Hash}`,
      'x-goog-stored-content-encoding': 'identity',
      'x-goog-stored-content-length': object.data.length,
      'x-goog-generation': String(object.generation),
      'x-goog-metageneration': String(object.metageneration),
    });
    res.end(data);
  }

  private async patch(
    res: ServerResponse,
    bucket: string,
    name: string,
    params: URLSearchParams,
    body: Buffer,
  ): Promise<void> {
    await this.applyFault('patch', name);
    const object = this.existing(bucket, name, params);
    const input = JSON.parse(body.toString('utf8') || '{}') as ObjectInput & {
      metadata?: Record<string, string | null>;
    };
    if (input.contentType) object.contentType = input.contentType;
    for (const [key, value] of Object.entries(input.metadata ?? {})) {
      if (value === null) delete object.metadata[key];
      else object.metadata[key] = value;
    }
    object.metageneration += 1;
    object.updated = new Date().toISOString();
    sendJson(res, 200, this.resource(object));
  }

  private async listObjects(
    res: ServerResponse,
    bucket: string,
    params: URLSearchParams,
  ): Promise<void> {
    await this.applyFault('list', params.get('prefix') ?? '');
    const prefix = params.get('prefix') ?? '';
    const delimiter = params.get('delimiter') ?? '';
    const max = Math.min(Number(params.get('maxResults') ?? 1000) || 1000, 1000);
    const after = params.get('pageToken')
      ? Buffer.from(params.get('pageToken')!, 'base64url').toString()
      : '';
    const items: FakeObject[] = [];
    const prefixes = new Set<string>();
    let nextPageToken: string | undefined;
    for (const object of this.list(bucket, prefix)) {
      if (after && object.name <= after) continue;
      const rest = object.name.slice(prefix.length);
      const cut = delimiter ? rest.indexOf(delimiter) : -1;
      if (cut >= 0) {
        prefixes.add(prefix + rest.slice(0, cut + delimiter.length));
        continue;
      }
      if (items.length === max) {
        nextPageToken = Buffer.from(items[items.length - 1].name).toString('base64url');
        break;
      }
      items.push(object);
    }
    sendJson(res, 200, {
      kind: 'storage#objects',
      ...(items.length ? { items: items.map((o) => this.resource(o)) } : {}),
      ...(prefixes.size ? { prefixes: [...prefixes] } : {}),
      ...(nextPageToken ? { nextPageToken } : {}),
    });
  }

  // ---- helpers ----

  private store(
    bucket: string,
    name: string,
    data: Buffer,
    contentType: string,
    metadata: Record<string, string>,
  ): FakeObject {
    const now = new Date().toISOString();
    const object: FakeObject = {
      bucket,
      name,
      data: Buffer.from(data),
      generation: ++this.nextGeneration,
      metageneration: 1,
      contentType,
      metadata: { ...metadata },
      md5Hash: md5Of(data),
      crc32c: crc32cOf(data),
      timeCreated: now,
      updated: now,
    };
    this.objects.set(`${bucket}/${name}`, object);
    return object;
  }

  private existing(bucket: string, name: string, params: URLSearchParams): FakeObject {
    const object = this.get(bucket, name);
    const generation = params.get('generation');
    if (!object || (generation && Number(generation) !== object.generation)) {
      throw new HttpError(404, `No such object: ${bucket}/${name}`, 'notFound');
    }
    this.checkPreconditions(bucket, name, params);
    return object;
  }

  private checkPreconditions(bucket: string, name: string, params: URLSearchParams): void {
    const object = this.get(bucket, name);
    const generation = object?.generation ?? 0;
    const failed = (key: string, test: (value: number) => boolean): boolean => {
      const raw = params.get(key);
      return raw !== null && !test(Number(raw));
    };
    if (
      failed('ifGenerationMatch', (v) => v === generation) ||
      failed('ifGenerationNotMatch', (v) => v !== generation) ||
      failed('ifMetagenerationMatch', (v) => object !== undefined && v === object.metageneration) ||
      failed('ifMetagenerationNotMatch', (v) => object === undefined || v !== object.metageneration)
    ) {
      throw new HttpError(
        412,
        'At least one of the pre-conditions you specified did not hold.',
        'conditionNotMet',
      );
    }
  }

  private async applyFault(op: FaultOp, name: string): Promise<Fault | undefined> {
    const index = this.faults.findIndex(
      (f) =>
        f.op === op &&
        (f.match === undefined ||
          (typeof f.match === 'string' ? name.includes(f.match) : f.match.test(name))),
    );
    if (index < 0) return undefined;
    const fault = this.faults[index];
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0) this.faults.splice(index, 1);
    if (fault.kind === 'delay') await new Promise((r) => setTimeout(r, fault.delayMs ?? 100));
    if (fault.kind === 'fail') {
      throw new HttpError(fault.status ?? 503, 'injected failure', 'backendError');
    }
    return fault;
  }

  private resource(o: FakeObject): Record<string, unknown> {
    const path = `b/${encodeURIComponent(o.bucket)}/o/${encodeURIComponent(o.name)}`;
    return {
      kind: 'storage#object',
      id: `${o.bucket}/${o.name}/${o.generation}`,
      selfLink: `${this.url}/storage/v1/${path}`,
      mediaLink: `${this.url}/download/storage/v1/${path}?generation=${o.generation}&alt=media`,
      name: o.name,
      bucket: o.bucket,
      generation: String(o.generation),
      metageneration: String(o.metageneration),
      contentType: o.contentType,
      storageClass: 'STANDARD',
      size: String(o.data.length),
      md5Hash: o.md5Hash,
      crc32c: o.crc32c,
      etag: `${o.generation}/${o.metageneration}`,
      timeCreated: o.timeCreated,
      updated: o.updated,
      ...(Object.keys(o.metadata).length ? { metadata: { ...o.metadata } } : {}),
    };
  }
}

interface ObjectInput {
  name?: string;
  contentType?: string;
  metadata?: Record<string, string>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function incomplete(res: ServerResponse, received: number): void {
  res.writeHead(308, received > 0 ? { range: `bytes=0-${received - 1}` } : {}).end();
}

function parseHashes(header: string | string[] | undefined): { md5?: string; crc32c?: string } {
  const result: { md5?: string; crc32c?: string } = {};
  for (const pair of String(header ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const key = pair.slice(0, at).trim().toLowerCase();
    if (key === 'md5' || key === 'crc32c') result[key] = pair.slice(at + 1).trim();
  }
  return result;
}

/** multipart/related as teeny-request writes it: `--b\r\nContent-Type: x\r\n\r\n<body>\r\n`... `--b--`. */
function parseMultipart(body: Buffer, boundary: string): { contentType?: string; body: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { contentType?: string; body: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const raw = body.subarray(start, next);
    const headerEnd = raw.indexOf('\r\n\r\n');
    const head = raw.subarray(0, headerEnd).toString('utf8');
    let content = raw.subarray(headerEnd + 4);
    if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
    const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim();
    parts.push({ ...(contentType ? { contentType } : {}), body: content });
    at = next;
  }
  return parts;
}
