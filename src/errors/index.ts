export { ERROR_CODES, isErrorCode, type ErrorCode } from './codes.js';
export {
  WakitError,
  isWakitError,
  toWakitError,
  type ErrorIssue,
  type WakitErrorOptions,
} from './wakit-error.js';
export { MAX_ISSUES, capIssues, issueError, zodIssues } from './issues.js';
