import type { z } from 'zod';
import { WakitError } from '../errors/index.js';
import type { Plugin, PluginDefinition, PrivilegeName } from './types.js';
import { turnOptionProblem } from '../conversations/turn-option.js';

/** Plugin names: a letter or digit, then letters, digits, `-`, `_`, `.`, `@` or `/` (npm-like). */
export const PLUGIN_NAME_PATTERN = /^[A-Za-z0-9@][A-Za-z0-9@/._-]{0,127}$/;

/**
 * Declares a plugin. Returns the same plain object, checked: a valid `name`, a `setup` function,
 * a zod `options` schema if any, `privileges` as a list of names if any. `setup(ctx, services)`
 * receives the options parsed by that schema, and the privileged services the plugin declared
 * (checked by name when the plugin loads: PLUGIN_LOAD_FAILED for an unknown one).
 *
 * ```ts
 * export default definePlugin({
 *   name: 'echo',
 *   options: z.object({ prefix: z.string().default('echo: ') }),
 *   setup(ctx) {
 *     ctx.command('echo', (cmd) => cmd.reply(ctx.options.prefix + cmd.rawArgs));
 *   },
 * });
 * ```
 */
export function definePlugin<
  S extends z.ZodType | undefined = undefined,
  const Granted extends PrivilegeName = never,
>(
  definition: PluginDefinition<S, Granted>,
  // NoInfer: `sdk.use(definePlugin({ … }))` must not infer every privilege from `use`'s parameter
): Plugin<S extends z.ZodType ? z.output<S> : undefined, NoInfer<Granted>> {
  if (!definition || typeof definition !== 'object') {
    throw new WakitError('VALIDATION_FAILED', 'definePlugin takes one object argument');
  }
  const { name, dependencies, options, setupTimeoutMs, privileges } = definition;
  const setup = (definition as { setup?: unknown }).setup;
  if (typeof name !== 'string' || !PLUGIN_NAME_PATTERN.test(name)) {
    throw new WakitError('VALIDATION_FAILED', `Plugin name ${JSON.stringify(name)} is invalid`, {
      issues: [{ path: 'name', message: `must match ${PLUGIN_NAME_PATTERN}` }],
    });
  }
  if (typeof setup !== 'function') {
    throw new WakitError('VALIDATION_FAILED', `Plugin ${name} has no setup function`, {
      issues: [{ path: 'setup', message: 'must be a function' }],
    });
  }
  if (
    dependencies !== undefined &&
    (!Array.isArray(dependencies) || dependencies.some((d) => typeof d !== 'string'))
  ) {
    throw new WakitError('VALIDATION_FAILED', `Plugin ${name}: dependencies must be plugin names`);
  }
  if (
    privileges !== undefined &&
    (!Array.isArray(privileges) || privileges.some((p) => typeof p !== 'string'))
  ) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `Plugin ${name}: privileges must be a list of service names`,
    );
  }
  if (
    options !== undefined &&
    typeof (options as { safeParse?: unknown }).safeParse !== 'function'
  ) {
    throw new WakitError('VALIDATION_FAILED', `Plugin ${name}: options must be a zod schema`);
  }
  const turns = turnOptionProblem(definition.turns);
  if (turns) throw new WakitError('VALIDATION_FAILED', `Plugin ${name}: ${turns}`);
  if (setupTimeoutMs !== undefined && !(Number.isFinite(setupTimeoutMs) && setupTimeoutMs > 0)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `Plugin ${name}: setupTimeoutMs must be a positive number`,
    );
  }
  return Object.freeze({ ...definition }) as unknown as Plugin<
    S extends z.ZodType ? z.output<S> : undefined,
    Granted
  >;
}

/** True when `value` looks like a plugin object (a name and a setup function). */
export function isPlugin(value: unknown): value is Plugin {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { setup?: unknown }).setup === 'function'
  );
}
