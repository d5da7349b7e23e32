import { friendlyIssues, formatPath } from '../config/friendly.js';
import { WakitError, issueError, type ErrorIssue } from '../errors/index.js';
import type { Plugin } from './types.js';

/** A plugin with its raw options and where it came from. */
export interface PluginEntry {
  plugin: Plugin;
  /** Raw options (config value or `sdk.use` argument); `true`, `null` and undefined mean defaults. */
  options: unknown;
  /** The config key (`auto-reply`, `./plugins/echo.ts`, `my-package`) or `sdk.use(<name>)`. */
  source: string;
}

/** A plugin ready to set up: options parsed by its schema. */
export interface ResolvedPlugin {
  plugin: Plugin;
  options: unknown;
  source: string;
}

/** Validates one plugin's options; the issues carry `plugins.<source>` paths. */
export function parsePluginOptions(entry: PluginEntry): { options: unknown; issues: ErrorIssue[] } {
  const { plugin, source } = entry;
  const raw =
    entry.options === true || entry.options === null || entry.options === undefined
      ? {}
      : entry.options;
  const at = formatPath(['plugins', source]);
  if (!plugin.options) {
    const empty =
      typeof raw === 'object' &&
      raw !== null &&
      !Array.isArray(raw) &&
      Object.keys(raw).length === 0;
    return empty
      ? { options: undefined, issues: [] }
      : {
          options: undefined,
          issues: [{ path: at, message: `plugin ${plugin.name} takes no options` }],
        };
  }
  const result = plugin.options.safeParse(raw);
  if (result.success) return { options: result.data, issues: [] };
  return {
    options: undefined,
    issues: friendlyIssues(result.error, plugin.options, raw, ['plugins', source]),
  };
}

/**
 * Checks a set of plugins as a whole and orders it for setup: every options problem at once
 * (CONFIG_INVALID), duplicate names (PLUGIN_DUPLICATE), missing dependencies and cycles
 * (PLUGIN_DEPENDENCY_MISSING). Dependencies come first; otherwise the given order is kept.
 */
export function resolvePluginSet(
  entries: readonly PluginEntry[],
  loadIssues: readonly ErrorIssue[] = [],
): ResolvedPlugin[] {
  const byName = new Map<string, PluginEntry>();
  for (const entry of entries) {
    const other = byName.get(entry.plugin.name);
    if (other) {
      throw new WakitError(
        'PLUGIN_DUPLICATE',
        `Two plugins are named ${entry.plugin.name} (from ${other.source} and ${entry.source})`,
        { details: { plugin: entry.plugin.name, sources: [other.source, entry.source] } },
      );
    }
    byName.set(entry.plugin.name, entry);
  }
  const issues: ErrorIssue[] = [...loadIssues];
  const parsed = new Map<string, unknown>();
  for (const entry of entries) {
    const result = parsePluginOptions(entry);
    issues.push(...result.issues);
    parsed.set(entry.plugin.name, result.options);
  }
  if (issues.length > 0) {
    throw issueError('CONFIG_INVALID', 'Plugins are misconfigured', issues);
  }
  for (const entry of entries) {
    const missing = (entry.plugin.dependencies ?? []).filter((d) => !byName.has(d));
    if (missing.length > 0) {
      throw new WakitError(
        'PLUGIN_DEPENDENCY_MISSING',
        `Plugin ${entry.plugin.name} needs ${missing.join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not enabled`,
        { details: { plugin: entry.plugin.name, missing } },
      );
    }
  }
  const ordered: ResolvedPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (entry: PluginEntry, trail: string[]): void => {
    const name = entry.plugin.name;
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(name)), name];
      throw new WakitError(
        'PLUGIN_DEPENDENCY_MISSING',
        `Plugin dependencies form a cycle: ${cycle.join(' → ')}`,
        {
          details: { cycle },
        },
      );
    }
    state.set(name, 'visiting');
    for (const dep of entry.plugin.dependencies ?? [])
      visit(byName.get(dep) as PluginEntry, [...trail, name]);
    state.set(name, 'done');
    ordered.push({ plugin: entry.plugin, options: parsed.get(name), source: entry.source });
  };
  for (const entry of entries) visit(entry, []);
  return ordered;
}
