import { ERROR_CODES, type ErrorCode } from './codes.js';

export interface ErrorIssue {
  /** Dotted path of the offending field (`auth.dataPath`, `content.url`); empty for the whole input. */
  path: string;
  message: string;
}

export interface WakitErrorOptions {
  details?: Record<string, unknown>;
  /** Field-level problems (validation errors report every one at once). */
  issues?: ErrorIssue[];
  cause?: unknown;
}

/**
 * Brand shared by every copy of this module: `isWakitError` must recognise a WakitError even when
 * two copies of wakit are loaded (a plugin with its own install, test runners mixing loaders).
 */
const BRAND = Symbol.for('wakit.error');

/** The single error type of wakit: a stable `code`, its HTTP `status`, a message, optional details. */
export class WakitError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
  readonly [BRAND] = true;
  override readonly name = 'WakitError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly issues: ErrorIssue[] | undefined;

  constructor(code: ErrorCode, message?: string, options: WakitErrorOptions = {}) {
    super(
      message ?? ERROR_CODES[code].title,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = options.details;
    this.issues = options.issues;
  }

  /** True when retrying the same operation later may succeed. */
  get transient(): boolean {
    return ERROR_CODES[this.code].transient;
  }

  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      status: this.status,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
      ...(this.issues ? { issues: this.issues } : {}),
    };
  }
}

export function isWakitError(error: unknown, code?: ErrorCode): error is WakitError {
  return error instanceof WakitError && (code === undefined || error.code === code);
}

/** Wraps anything thrown into a WakitError, keeping the original as `cause`. */
export function toWakitError(error: unknown, fallback: ErrorCode = 'INTERNAL'): WakitError {
  if (error instanceof WakitError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new WakitError(fallback, message, { cause: error });
}
