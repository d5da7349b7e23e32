import type { Context } from 'koa';
import { ERROR_CODES, WakitError, isWakitError, type ErrorCode } from '../../../src/index.js';
import * as http from '../../../src/entries/http.js';

/** An RFC 9457 problem body, as every REST error is sent. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: http.ErrorIssue[];
  details?: Record<string, unknown>;
}

/** Longest `detail`, in characters. */
const MAX_DETAIL = 1_000;

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Problem `type`s are relative URI references (RFC 9457 §3.1.1) to the error table this server
 * serves itself, `/api/docs/errors` (docs/errors.md), with the code as fragment: always ours,
 * whatever host the API runs on.
 */
export const PROBLEM_TYPE_BASE = '/api/docs/errors#';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The anchor of a code on the errors page: `CLIENT_NOT_FOUND` → `client-not-found`. */
export function problemFragment(code: string): string {
  return code.toLowerCase().replaceAll('_', '-');
}

/** Errors thrown by Koa's body parser (co-body / raw-body) carry `type` and `status`. */
function fromHttpError(error: {
  status?: unknown;
  type?: unknown;
  expose?: unknown;
}): WakitError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return new WakitError('PAYLOAD_TOO_LARGE', 'The request body is larger than the limit');
    case 'entity.parse.failed':
      return new WakitError(
        'VALIDATION_FAILED',
        'The request body is not valid JSON (an object or an array)',
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new WakitError(
        'UNSUPPORTED_MEDIA_TYPE',
        'The request body encoding or charset is not supported',
      );
    case 'request.size.invalid':
    case 'request.aborted':
      return new WakitError('VALIDATION_FAILED', 'The request body is incomplete');
    case 'stream.encoding.set':
    case 'stream.not.readable':
      return new WakitError('VALIDATION_FAILED', 'The request body could not be read');
    default:
      break;
  }
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
    if (error.status === 413) return new WakitError('PAYLOAD_TOO_LARGE');
    if (error.status === 415) return new WakitError('UNSUPPORTED_MEDIA_TYPE');
    return new WakitError('VALIDATION_FAILED', 'The request is malformed');
  }
  return undefined;
}

/** 5xx codes whose message and details are wakit's own words for the caller (no internals). */
const EXPLAINED_5XX: ReadonlySet<string> = new Set([
  'MEDIA_DOWNLOAD_FAILED',
  'ENGINE_INCOMPATIBLE',
]);

/** The problem body for any thrown value; 5xx never carry an internal message. */
export function toProblem(error: unknown): Problem {
  let wakit: WakitError | undefined = isWakitError(error) ? error : undefined;
  if (!wakit && error !== null && typeof error === 'object') wakit = fromHttpError(error);
  wakit ??= new WakitError('INTERNAL');
  const meta = ERROR_CODES[wakit.code];
  const serverSide = wakit.status >= 500 && !EXPLAINED_5XX.has(wakit.code);
  const problem: Problem = {
    type: `${PROBLEM_TYPE_BASE}${problemFragment(wakit.code)}`,
    title: meta.title,
    status: wakit.status,
    detail: serverSide ? meta.title : truncate(wakit.message, MAX_DETAIL),
    code: wakit.code,
  };
  if (wakit.issues && wakit.issues.length > 0) problem.errors = http.capIssues(wakit.issues);
  if (wakit.details && !serverSide) problem.details = wakit.details;
  return problem;
}

/** Writes a problem response on `ctx`. */
export function sendProblem(ctx: Context, problem: Problem): void {
  ctx.status = problem.status;
  ctx.type = PROBLEM_CONTENT_TYPE;
  ctx.body = problem;
  if (problem.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="wakit"');
}

/** Shorthand to throw a coded error from a route. */
export function fail(code: ErrorCode, message?: string, details?: Record<string, unknown>): never {
  throw new WakitError(code, message, details ? { details } : {});
}
