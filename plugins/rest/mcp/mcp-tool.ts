/**
 * An MCP tool of wakit: its name, what an agent reads about it, its input (one zod schema: the
 * JSON Schema `tools/list` shows and the check of `tools/call`), what it does to the account (the
 * `readOnlyHint` / `destructiveHint` annotations) and its call, on a backend (mcp-backend.ts).
 */
import { z } from 'zod';
import { isWakitError, type ErrorCode } from '../../../src/index.js';
import * as http from '../../../src/entries/http.js';
import type { McpBackend } from './mcp-backend.js';

/** What a tool does: `read` changes nothing, `additive` adds or is undone by its twin. */
export type ToolEffect = 'read' | 'additive' | 'destructive';

export interface McpTool {
  /** `^[A-Za-z0-9_-]{1,64}$` (what desktop agents accept): `chats_pin`, `messages_send`. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The arguments: an object schema (strict: unknown fields are refused). */
  readonly input: z.ZodType;
  readonly effect: ToolEffect;
  /** Calling it twice with the same arguments does what calling it once did. */
  readonly idempotent?: boolean;
  /** The call, with arguments that passed `input` (its output). */
  call(backend: McpBackend, args: Record<string, unknown>): Promise<unknown>;
}

export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A tool (frozen; its name checked). */
export function defineTool(tool: McpTool): McpTool {
  if (!TOOL_NAME.test(tool.name)) throw new Error(`MCP tool name ${tool.name} is not valid`);
  return Object.freeze(tool);
}

/** The client a tool acts with: a client name, the default client when absent. */
export const clientArg = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/)
  .optional()
  .describe('The client (WhatsApp account) to act with; the default client when absent');

/** The arguments of a call, checked: VALIDATION_FAILED with issues naming the fields. */
export function parseArgs(name: string, schema: z.ZodType, args: unknown): Record<string, unknown> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  throw http.issueError(
    'VALIDATION_FAILED',
    `Invalid arguments of ${name}`,
    http.zodIssues(parsed.error),
  );
}

/** A coded error as a tool's error result shows it (no stack, no internals). */
export interface ToolError {
  code: ErrorCode;
  status: number;
  message: string;
  issues?: http.ErrorIssue[];
  details?: Record<string, unknown>;
}

/**
 * A failure as an agent sees it: wakit's stable code and message; anything that is not a
 * WakitError is INTERNAL (reported to the error sink, its message not shown), and a 5xx shows no
 * details, as REST's problems.
 */
export function toolError(error: unknown, backend: Pick<McpBackend, 'report'>): ToolError {
  if (!isWakitError(error)) {
    backend.report(error);
    return { code: 'INTERNAL', status: 500, message: 'Internal error' };
  }
  return {
    code: error.code,
    status: error.status,
    message: error.message,
    ...(error.issues?.length ? { issues: http.capIssues(error.issues) } : {}),
    ...(error.details && error.status < 500 ? { details: error.details } : {}),
  };
}
