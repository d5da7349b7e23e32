/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time by function and by module (package in
 * node_modules, file under src/ or plugins/, node: internals), idle time left out of the shares.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
 */
import { readFile } from 'node:fs/promises';
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
  return wakit ? wakit[1] : url;
}

export async function summarise(file: string, top = 25) {
  const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  const fns = new Map<string, number>();
  const mods = new Map<string, number>();
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
    fns.set(fn, (fns.get(fn) ?? 0) + us);
    mods.set(mod, (mods.get(mod) ?? 0) + us);
  }
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        'self ms': Math.round(us / 1000),
        '% of busy': Number(((us / busy) * 100).toFixed(1)),
      }));
  return {
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    functions: rows(fns),
    modules: rows(mods),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, top] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
  const summary = await summarise(file, Number(top ?? 25));
  console.log(`busy ${summary.busyMs} ms, idle ${summary.idleMs} ms`);
  console.log('\nself time by module');
  console.table(summary.modules);
  console.log('\nself time by function');
  console.table(summary.functions);
}
