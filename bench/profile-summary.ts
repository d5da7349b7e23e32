/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, or the bench's BENCH_CPU_PROF): self time by
 * function and by module (package in node_modules, file under src/ or plugins/, node: internals,
 * `dist` for the built package's chunks), idle time left out of the shares. When a `requests.json`
 * lies beside the profile (the REST bench writes one: requests served per profile), each row also
 * says its µs per request. Given two profiles (an A/B), it compares them: µs per request (or ms
 * when the request counts are unknown) of each module and function in both, biggest change first.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
 *   npx tsx bench/profile-summary.ts <a.cpuprofile> <b.cpuprofile> [top=25]
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives: an npm package, a wakit file, a node internal, or a V8 pseudo-frame. */
export function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url.replace(/^node:internal\//, 'node:').split('/')[0];
  const wakit = /\/((?:src|plugins|bench)\/.*)$/.exec(url);
  if (wakit) return wakit[1];
  // the built package's shared chunks: their names change with every build
  return /\/dist\/chunk-[\w-]+\.js$/.test(url) ? 'dist' : url;
}

export interface Summary {
  busyMs: number;
  idleMs: number;
  /** requests served while profiled, from requests.json beside the file */
  requests?: number;
  /** self µs by function (`name  module:line`) */
  functions: Map<string, number>;
  /** self µs by module */
  modules: Map<string, number>;
}

async function requestsFor(file: string): Promise<number | undefined> {
  try {
    const counts = JSON.parse(
      await readFile(path.join(path.dirname(file), 'requests.json'), 'utf8'),
    ) as Record<string, number>;
    return counts[path.basename(file)];
  } catch {
    return undefined;
  }
}

export async function summarise(file: string): Promise<Summary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  const functions = new Map<string, number>();
  const modules = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const mod = moduleOf(url, functionName);
    const fn = `${functionName || '(anonymous)'}  ${mod}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
    modules.set(mod, (modules.get(mod) ?? 0) + us);
  }
  const requests = await requestsFor(file);
  return {
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    ...(requests ? { requests } : {}),
    functions,
    modules,
  };
}

const fixed = (value: number, digits: number) => Number(value.toFixed(digits));

/** One profile's rows: self ms, share of busy time and, with a request count, µs per request. */
function rows(summary: Summary, map: Map<string, number>, top: number) {
  const busyUs = summary.busyMs * 1000;
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({
      name,
      'self ms': Math.round(us / 1000),
      '% of busy': fixed((us / busyUs) * 100, 1),
      ...(summary.requests ? { 'µs/req': fixed(us / summary.requests, 2) } : {}),
    }));
}

/** Two profiles side by side: per request when both counts are known, else in ms; biggest change first. */
function compareRows(
  a: Summary,
  b: Summary,
  pick: (s: Summary) => Map<string, number>,
  top: number,
) {
  const perRequest = a.requests !== undefined && b.requests !== undefined;
  const unit = perRequest ? 'µs/req' : 'ms';
  const scale = (s: Summary, us: number) => (perRequest ? us / s.requests! : us / 1000);
  const names = new Set([...pick(a).keys(), ...pick(b).keys()]);
  return [...names]
    .map((name) => {
      const x = scale(a, pick(a).get(name) ?? 0);
      const y = scale(b, pick(b).get(name) ?? 0);
      return { name, [`A ${unit}`]: fixed(x, 2), [`B ${unit}`]: fixed(y, 2), 'B − A': y - x };
    })
    .sort((p, q) => Math.abs(q['B − A']) - Math.abs(p['B − A']))
    .slice(0, top)
    .map((row) => ({ ...row, 'B − A': fixed(row['B − A'], 2) }));
}

/** wakit's own modules: the built package, or the sources. */
const isWakit = (module: string) => module === 'dist' || /^(src|plugins)\//.test(module);

/**
 * The header line. wakit's own share of busy time compares builds on a crowded machine too: the
 * rest (Node's HTTP, Koa, V8) is the same code in both, slowed down alike.
 */
function describe(label: string, file: string, summary: Summary): string {
  const per = summary.requests
    ? `, ${summary.requests} requests, ${fixed((summary.busyMs * 1000) / summary.requests, 1)} µs busy/req`
    : '';
  let own = 0;
  for (const [module, us] of summary.modules) if (isWakit(module)) own += us;
  const share = fixed((own / (summary.busyMs * 1000)) * 100, 1);
  return `${label}${file}: busy ${summary.busyMs} ms, idle ${summary.idleMs} ms${per}, wakit's own code ${share} % of busy`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const files = args.filter((arg) => arg.endsWith('.cpuprofile'));
  const top = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 25);
  if (files.length < 1 || files.length > 2) {
    throw new Error('usage: profile-summary.ts <file.cpuprofile> [<b.cpuprofile>] [top]');
  }
  const [a, b] = await Promise.all(files.map((file) => summarise(file)));
  if (!b) {
    console.log(describe('', files[0], a));
    console.log('\nself time by module');
    console.table(rows(a, a.modules, top));
    console.log('\nself time by function');
    console.table(rows(a, a.functions, top));
  } else {
    console.log(describe('A: ', files[0], a));
    console.log(describe('B: ', files[1], b));
    console.log('\nself time by module, biggest change first');
    console.table(compareRows(a, b, (s) => s.modules, top));
    console.log('\nself time by function, biggest change first');
    // lines move between builds: functions are compared by name and module
    const byName = (s: Summary) => {
      const out = new Map<string, number>();
      for (const [fn, us] of s.functions) {
        const name = fn.replace(/:\d+$/, '');
        out.set(name, (out.get(name) ?? 0) + us);
      }
      return out;
    };
    console.table(compareRows(a, b, byName, top));
  }
}
