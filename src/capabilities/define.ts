/**
 * A capability is declared once: its name (`area.method`, which is also the SDK method
 * `client.<area>.<method>(…)`), its input schema and positional arguments, the engine call, and
 * how REST serves it. The client's area managers (manager.ts) and the REST routes with their
 * OpenAPI entries (plugins/rest/capability-routes.ts) are generated from the declarations.
 */
import type { z } from 'zod';
import type { Engine } from '../engines/engine.js';
import type { ErrorCode } from '../errors/index.js';

export type CapabilityHttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A validated REST request, as the route generator hands it to `toInput`. */
export interface CapabilityRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

/** How REST serves a capability: one route, its OpenAPI operation and response. */
export interface CapabilityHttp<In, Parsed, Result> {
  method: CapabilityHttpMethod;
  /** Under `/api/v1`, OpenAPI style: `/chats/{chatId}/pin`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** The OpenAPI tag (the area's docs page). */
  tag: string;
  /** Path parameters (every `{name}` of `path`). */
  params?: z.ZodObject;
  /** Query parameters besides `client` (the generator adds `?client=`, the default client when absent). */
  query?: z.ZodObject;
  /**
   * How the route names its client: `query` (default) `?client=`; `path`: no `?client=`, and a
   * second route under `/clients/{name}` (operationId `<id>OfClient`, summary `… (named client)`).
   */
  client?: 'query' | 'path';
  /** The JSON request body, validated before `toInput` (the SDK validates the input again). */
  body?: z.ZodType;
  /** Further schemas the body and response use, named as OpenAPI components. */
  components?: Readonly<Record<string, z.ZodType>>;
  /** The request's capability input, from its validated parameters (the SDK validates it again). */
  toInput(request: CapabilityRequest): In;
  /** Success status. */
  status: number;
  /** The success body; `component` names it in the OpenAPI document's components. */
  response: {
    description: string;
    /** Absent: no body (e.g. 204). */
    schema?: z.ZodType;
    /** Response headers: name → description (set by `headers`). */
    headers?: Readonly<Record<string, string>>;
    component?: string;
    /** The component's description. */
    componentDescription?: string;
  };
  /** The body of a success (default: the SDK method's result), from the checked input. */
  toBody?(result: Result, input: Parsed, request: CapabilityRequest): unknown;
  /** The response headers of a success (`response.headers` documents them). */
  headers?(result: Result): Record<string, string>;
  /** Error statuses the route may answer with (problem+json). */
  errors: readonly number[];
}

export interface Capability<
  I extends z.ZodObject = z.ZodObject,
  A extends readonly (keyof z.input<I> & string)[] = readonly (keyof z.input<I> & string)[],
  R = unknown,
> {
  /** `area.method`: `client.<area>.<method>(…)`. */
  readonly name: `${string}.${string}`;
  readonly summary: string;
  /** Where the docs explain it: `docs/chats.md#pinning`. */
  readonly docs: string;
  /** `direct`: while READY, at once (not through the send queue). */
  readonly mode: 'direct';
  /** What the SDK method takes, checked before the engine is asked (VALIDATION_FAILED, INVALID_CHAT_ID). */
  readonly input: I;
  /** The SDK method's positional arguments, in order: names of `input`'s fields. */
  readonly args: A;
  /** The codes the capability itself may fail with (besides VALIDATION_FAILED and CLIENT_NOT_READY). */
  readonly errors: readonly ErrorCode[];
  /** The engine call. */
  run(engine: Engine, input: z.output<I>): Promise<R>;
  readonly http?: CapabilityHttp<z.input<I>, z.output<I>, R>;
}

/** Any declaration, whatever its input and result. */
export type AnyCapability = Capability<z.ZodObject, readonly string[], unknown>;

/** Declares a capability (frozen: the declarations are the single source of truth). */
export function defineCapability<
  I extends z.ZodObject,
  const A extends readonly (keyof z.input<I> & string)[],
  R,
>(declaration: Capability<I, A, R>): Capability<I, A, R> {
  return Object.freeze(declaration);
}
