/**
 * A small JSON Schema (2020-12) validator for the subset `z.toJSONSchema` emits, enough to check
 * REST responses against the OpenAPI document. Unknown keywords throw, so a schema it does not
 * understand can never pass silently.
 */
type Schema = Record<string, unknown> | boolean;

const IGNORED = new Set([
  'description',
  'title',
  'default',
  'format',
  'contentEncoding',
  'examples',
  'id',
  '$schema',
  '$id',
  'readOnly',
]);

export function validateJson(
  schema: Schema,
  value: unknown,
  root: Record<string, unknown>,
  at = '$',
): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${at}: no value allowed`];
  const errors: string[] = [];
  for (const [keyword, rule] of Object.entries(schema)) {
    if (IGNORED.has(keyword)) continue;
    switch (keyword) {
      case '$ref': {
        const ref = rule as string;
        if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
        let target: unknown = root;
        for (const part of ref.slice(2).split('/'))
          target = (target as Record<string, unknown>)[part];
        if (target === undefined) throw new Error(`dangling $ref ${ref}`);
        errors.push(...validateJson(target as Schema, value, root, at));
        break;
      }
      case 'type': {
        const types = Array.isArray(rule) ? (rule as string[]) : [rule as string];
        if (!types.some((t) => typeOk(t, value)))
          errors.push(
            `${at}: expected ${types.join('|')}, got ${JSON.stringify(value)?.slice(0, 40)}`,
          );
        break;
      }
      case 'enum':
        if (!(rule as unknown[]).some((v) => JSON.stringify(v) === JSON.stringify(value)))
          errors.push(`${at}: not in enum`);
        break;
      case 'const':
        if (JSON.stringify(rule) !== JSON.stringify(value))
          errors.push(`${at}: expected ${JSON.stringify(rule)}`);
        break;
      case 'properties':
        if (isObject(value)) {
          for (const [key, sub] of Object.entries(rule as Record<string, Schema>)) {
            if (key in value) errors.push(...validateJson(sub, value[key], root, `${at}.${key}`));
          }
        }
        break;
      case 'required':
        if (isObject(value))
          for (const key of rule as string[])
            if (!(key in value)) errors.push(`${at}.${key}: required`);
        break;
      case 'additionalProperties':
        if (isObject(value)) {
          const known = new Set(Object.keys((schema as { properties?: object }).properties ?? {}));
          for (const key of Object.keys(value)) {
            if (known.has(key)) continue;
            if (rule === false) errors.push(`${at}.${key}: not allowed`);
            else errors.push(...validateJson(rule as Schema, value[key], root, `${at}.${key}`));
          }
        }
        break;
      case 'propertyNames':
        if (isObject(value))
          for (const key of Object.keys(value))
            errors.push(...validateJson(rule as Schema, key, root, `${at}[key]`));
        break;
      case 'items':
        if (Array.isArray(value))
          value.forEach((item, i) =>
            errors.push(...validateJson(rule as Schema, item, root, `${at}[${i}]`)),
          );
        break;
      case 'anyOf':
      case 'oneOf': {
        const matches = (rule as Schema[]).filter(
          (sub) => validateJson(sub, value, root, at).length === 0,
        ).length;
        if (matches === 0 || (keyword === 'oneOf' && matches > 1))
          errors.push(`${at}: ${keyword} matched ${matches}`);
        break;
      }
      case 'not':
        if (validateJson(rule as Schema, value, root, at).length === 0)
          errors.push(`${at}: matches a schema it must not`);
        break;
      case 'if': {
        const then = (schema as { then?: Schema }).then ?? true;
        const otherwise = (schema as { else?: Schema }).else ?? true;
        const holds = validateJson(rule as Schema, value, root, at).length === 0;
        errors.push(...validateJson(holds ? then : otherwise, value, root, at));
        break;
      }
      case 'then':
      case 'else':
        break;
      case 'minProperties':
        if (isObject(value) && Object.keys(value).length < (rule as number))
          errors.push(`${at}: too few properties`);
        break;
      case 'allOf':
        for (const sub of rule as Schema[]) errors.push(...validateJson(sub, value, root, at));
        break;
      case 'minLength':
        if (typeof value === 'string' && [...value].length < (rule as number))
          errors.push(`${at}: too short`);
        break;
      case 'maxLength':
        if (typeof value === 'string' && [...value].length > (rule as number))
          errors.push(`${at}: too long`);
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(rule as string, 'u').test(value))
          errors.push(`${at}: does not match ${String(rule)}`);
        break;
      case 'minimum':
        if (typeof value === 'number' && value < (rule as number))
          errors.push(`${at}: below minimum`);
        break;
      case 'maximum':
        if (typeof value === 'number' && value > (rule as number))
          errors.push(`${at}: above maximum`);
        break;
      case 'minItems':
        if (Array.isArray(value) && value.length < (rule as number))
          errors.push(`${at}: too few items`);
        break;
      case 'maxItems':
        if (Array.isArray(value) && value.length > (rule as number))
          errors.push(`${at}: too many items`);
        break;
      default:
        throw new Error(`validateJson: unsupported keyword ${keyword} at ${at}`);
    }
  }
  return errors;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOk(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      throw new Error(`unsupported type ${type}`);
  }
}

type Responses = Record<string, { $ref?: string; content?: Record<string, { schema: object }> }>;

/**
 * The documented response of an operation for `status`, following a `$ref` to the document's
 * shared `components/responses`; undefined when the status is not documented.
 */
export function documentedResponse(
  doc: unknown,
  method: string,
  template: string,
  status: number,
): { content?: Record<string, { schema: object }>; headers?: Record<string, unknown> } | undefined {
  const d = doc as {
    paths: Record<string, Record<string, { responses: Responses }>>;
    components: { responses?: Responses };
  };
  const own = d.paths[template]?.[method]?.responses[String(status)];
  if (!own?.$ref) return own;
  return d.components.responses?.[own.$ref.split('/').pop() ?? ''];
}
