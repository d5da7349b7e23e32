import type { z } from 'zod';
import type { ErrorCode } from './codes.js';
import { WakitError, type ErrorIssue } from './wakit-error.js';

/** At most this many issues are kept in an error (the rest are counted in one last issue). */
export const MAX_ISSUES = 50;
/** Longer issue messages are cut: an error never echoes a huge input back. */
const MAX_MESSAGE = 300;

/** Turns zod issues into wakit's `{ path, message }` list; `prefix` is prepended to every path. */
export function zodIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): ErrorIssue[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path].map(String).join('.'),
    message: issue.message,
  }));
}

/**
 * Caps an issue list at MAX_ISSUES entries (plus one that counts the rest) and every path and
 * message at MAX_MESSAGE characters. Capping a capped list changes nothing (the REST problem
 * boundary caps whatever reaches it, lists made by `issueError` included).
 */
export function capIssues(issues: readonly ErrorIssue[]): ErrorIssue[] {
  const keep = issues.length > MAX_ISSUES + 1 ? MAX_ISSUES : issues.length;
  const kept = issues.slice(0, keep).map((issue) => ({
    path: issue.path.length > MAX_MESSAGE ? `${issue.path.slice(0, MAX_MESSAGE)}…` : issue.path,
    message:
      issue.message.length > MAX_MESSAGE
        ? `${issue.message.slice(0, MAX_MESSAGE)}…`
        : issue.message,
  }));
  if (issues.length > keep) {
    kept.push({ path: '', message: `… and ${issues.length - keep} more problems` });
  }
  return kept;
}

/**
 * The one way to build a VALIDATION_FAILED or CONFIG_INVALID error from a list of problems:
 * `title` says what was invalid; the message lists every (capped) problem with its path, one per
 * line for configuration, `; `-separated for requests.
 */
export function issueError(
  code: Extract<ErrorCode, 'VALIDATION_FAILED' | 'CONFIG_INVALID'>,
  title: string,
  issues: readonly ErrorIssue[],
  options: { details?: Record<string, unknown> } = {},
): WakitError {
  const capped = capIssues(issues);
  const lines = capped.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const message =
    code === 'CONFIG_INVALID'
      ? `${title}:\n${lines.map((line) => `  - ${line}`).join('\n')}`
      : `${title}: ${lines.join('; ')}`;
  return new WakitError(code, message, { issues: capped, ...options });
}
