/**
 * Every failure reaches the sink (issue 30, DESIGN.md error model): each catch site in src/ and
 * plugins/ reports, rethrows or converts, handles the failure (a value, a state, an answer), hands
 * it to a callback, or says in a `// not reported: <why>` comment why it must not. The sites that
 * only log or swallow today are listed in catch-sites.allowlist.json (by file and enclosing
 * function, with a count); the list may only shrink: a new such site fails, and so does an entry
 * the code no longer has (take it off the list).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { catchSites } from '../helpers/catch-sites.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ALLOWLIST = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'catch-sites.allowlist.json',
);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(rel);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** `<class> <file> <function>` → how many sites that only log or swallow there. */
function unreported(): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of [...sourceFiles('src'), ...sourceFiles('plugins')]) {
    for (const site of catchSites(file, fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
      if (site.class !== 'logs' && site.class !== 'swallows') continue;
      const key = `${site.class} ${file} ${site.where}`;
      out.set(key, (out.get(key) ?? 0) + 1);
    }
  }
  return out;
}

describe('catch sites (every failure reaches the sink, or says why not)', function () {
  this.timeout(30_000);

  it('no catch site only logs or swallows beyond the allowlist, and the allowlist only shrinks', () => {
    const allowed = JSON.parse(fs.readFileSync(ALLOWLIST, 'utf8')) as Record<string, number>;
    const now = unreported();
    const grown = [...now].filter(([key, n]) => n > (allowed[key] ?? 0)).map(([key]) => key);
    expect(
      grown,
      'report these (ErrorSink.report / ctx.report), rethrow, or add `// not reported: <why>`',
    ).to.deep.equal([]);
    const stale = Object.entries(allowed)
      .filter(([key, n]) => (now.get(key) ?? 0) < n)
      .map(([key]) => key);
    expect(stale, `fixed: lower or remove these in ${path.basename(ALLOWLIST)}`).to.deep.equal([]);
  });

  it('classifies the kinds of handler (a fixture)', () => {
    const code = `
      class Worker {
        run() {
          try { a(); } catch (error) { this.log.warn({ err: error }, 'failed'); }
          try { a(); } catch { /* nothing */ }
          try { a(); } catch (error) { sink.report({ source: 'queue', error }); }
          try { a(); } catch (error) { throw wrap(error); }
          try { a(); } catch (error) { return fallback(error); }
          // not reported: best-effort cleanup, the next start removes it
          void p.catch(() => undefined);
          void p.catch(onError);
          void p.then(() => 1, (e) => log.error(e));
        }
      }
      const probe = async () => { try { await b(); } catch { return false; } };
    `;
    const sites = catchSites('fixture.ts', code);
    expect(sites.map((s) => [s.where, s.kind, s.class])).to.deep.equal([
      ['Worker.run', 'try', 'logs'],
      ['Worker.run', 'try', 'swallows'],
      ['Worker.run', 'try', 'reports'],
      ['Worker.run', 'try', 'rethrows'],
      ['Worker.run', 'try', 'handles'],
      ['Worker.run', 'catch', 'explained'],
      ['Worker.run', 'catch', 'callback'],
      ['Worker.run', 'then', 'logs'],
      ['probe', 'try', 'swallows'],
    ]);
  });
});
