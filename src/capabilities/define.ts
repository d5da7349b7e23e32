/**
 * A capability is declared once: its name (`area.method`, which is also the SDK method
 * `client.<area>.<method>(…)`), its input schema and positional arguments, the engine call, and
 * how REST serves it. The client's area managers (manager.ts) and the REST routes with their
 * OpenAPI entries (plugins/rest/routes/capability-routes.ts) are generated from the declarations.
 */
import type { z } from 'zod';
import type { Engine } from '../engines/engine.js';
import type { ErrorCode } from '../errors/index.js';
import type { PreparedSend } from '../client/send/send-contract.js';

export type CapabilityHttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a capability does to the account (see `Capability.effect`). */
export type CapabilityEffect = 'read' | 'additive' | 'destructive';

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
  /** Further schemas the body and response use (nested ones too), named as OpenAPI components. */
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

/** Names of an input's fields. */
type Fields<I extends z.ZodObject> = readonly (keyof z.input<I> & string)[];

export interface Capability<
  I extends z.ZodObject = z.ZodObject,
  A extends readonly (keyof z.input<I> & string)[] = readonly (keyof z.input<I> & string)[],
  R = unknown,
  O extends Fields<I> = readonly [],
> {
  /** `area.method`: `client.<area>.<method>(…)`. */
  readonly name: `${string}.${string}`;
  readonly summary: string;
  /** Where the docs explain it: `docs/chats.md#pinning`. */
  readonly docs: string;
  /** `direct`: while READY, at once (not through the send queue; see `QueuedCapability`). */
  readonly mode: 'direct';
  /** What the SDK method takes, checked before the engine is asked (VALIDATION_FAILED, INVALID_CHAT_ID). */
  readonly input: I;
  /** The SDK method's positional arguments, in order: names of `input`'s fields. */
  readonly args: A;
  /** Fields of `input` the SDK method takes from one options object after `args` (`{ limit }`). */
  readonly options?: O;
  /** The codes the capability itself may fail with (besides VALIDATION_FAILED and CLIENT_NOT_READY). */
  readonly errors: readonly ErrorCode[];
  /**
   * What a call does to the account, for agents (the MCP tools' `readOnlyHint` and
   * `destructiveHint`): `read` changes nothing; `additive` adds something or is undone by its twin
   * (a reaction, a pin, a presence); `destructive` removes or overwrites. Default: `read` for a
   * `GET` route, `destructive` otherwise (an agent asks before it).
   */
  readonly effect?: CapabilityEffect;
  /** The engine call. */
  run(engine: Engine, input: z.output<I>): Promise<R>;
  readonly http?: CapabilityHttp<z.input<I>, z.output<I>, R>;
}

/** What every queued method also takes in its options, as sends do. */
export interface QueueOptions {
  idempotencyKey?: string;
}

/** How REST serves a queued capability: 202 (queued) or 201 with `Prefer: wait=N`, as sends. */
export interface QueuedHttp<In> {
  method: CapabilityHttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The JSON body besides `client` (the generator adds `client`, the default client when absent). */
  body?: { schema: z.ZodObject; component: string; componentDescription?: string };
  /**
   * `{id}` of the path is a WhatsApp message id or the tracking id of a send of this server (the
   * message that send made, acted on with its client); `toInput` then sees the message id.
   */
  messageParam?: boolean;
  toInput(request: CapabilityRequest): In;
  errors: readonly number[];
  components?: Readonly<Record<string, z.ZodType>>;
}

/**
 * A capability that goes through the outbound queue (tracked, journaled, recovered after a crash,
 * paced): `prepare` makes the send from the checked input; the SDK method resolves once it is made
 * (`SendResult`) and takes `idempotencyKey` in its options.
 */
export interface QueuedCapability<
  I extends z.ZodObject = z.ZodObject,
  A extends readonly (keyof z.input<I> & string)[] = readonly (keyof z.input<I> & string)[],
  O extends Fields<I> = readonly [],
> extends Omit<Capability<I, A, never, O>, 'mode' | 'run' | 'http'> {
  readonly mode: 'queued';
  /** The send the queue takes; `self` is the account's own id ('' while unknown). */
  prepare(input: z.output<I>, self: string): PreparedSend;
  readonly http?: QueuedHttp<z.input<I>>;
}

/** Any declaration, whatever its input and result. */
export type AnyCapability =
  | Capability<z.ZodObject, readonly string[], unknown, readonly string[]>
  | QueuedCapability<z.ZodObject, readonly string[], readonly string[]>;

/** Declares a capability (frozen: the declarations are the single source of truth). */
export function defineCapability<
  I extends z.ZodObject,
  const A extends readonly (keyof z.input<I> & string)[],
  R,
  const O extends Fields<I> = readonly [],
>(declaration: Capability<I, A, R, O>): Capability<I, A, R, O> {
  return Object.freeze(declaration);
}

/** Declares a queued capability. */
export function defineQueuedCapability<
  I extends z.ZodObject,
  const A extends readonly (keyof z.input<I> & string)[],
  const O extends Fields<I> = readonly [],
>(declaration: QueuedCapability<I, A, O>): QueuedCapability<I, A, O> {
  return Object.freeze(declaration);
}
