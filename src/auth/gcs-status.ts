/**
 * The HTTP status of an error thrown by `@google-cloud/storage`. Its shapes differ by path:
 * multipart uploads and JSON calls throw an `ApiError` with a numeric `code`; resumable uploads
 * throw a gaxios error with `status` and `response.status` (and `code` unset or a string such as
 * `ECONNRESET`); a failed resumable finalisation rejects with the plain `{ code, message }` error
 * body. Read as `code ?? status ?? response.status`, skipping values that are not HTTP statuses.
 */
export function gcsStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; status?: unknown; response?: { status?: unknown } | null };
  for (const value of [e.code, e.status, e.response?.status]) {
    const status =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && /^\d{3}$/.test(value)
          ? Number(value)
          : NaN;
    if (Number.isInteger(status) && status >= 100 && status <= 599) return status;
  }
  return undefined;
}
