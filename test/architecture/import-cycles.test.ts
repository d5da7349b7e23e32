/**
 * No import cycles in src/ and plugins/ (issue 30). A cycle through runtime imports is a load-order
 * hazard (a module reads a binding of one that has not finished loading): there must be none. A
 * cycle through type-only imports is harmless at run time but tangles concepts; today's are listed
 * below, and the list may only shrink: a new cycle, or a known one that grows, fails the test, and
 * so does a listed file that is no longer in a cycle (take it off the list).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { importCycles, importGraph } from '../helpers/import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The type-only cycles of 2026-11-25 (issue 30 baseline §1.6, after the runtime ones broke). */
const KNOWN_TYPE_CYCLES: readonly (readonly string[])[] = [
  [
    'src/engines/simulator/device.ts',
    'src/engines/simulator/engine-ops.ts',
    'src/engines/simulator/engine.ts',
    'src/engines/simulator/message-kinds.ts',
    'src/engines/simulator/network.ts',
    'src/engines/simulator/outgoing.ts',
  ],
  [
    'src/engines/simulator/account.ts',
    'src/engines/simulator/action-types.ts',
    'src/engines/simulator/actions.ts',
    'src/engines/simulator/calls.ts',
    'src/engines/simulator/channel.ts',
    'src/engines/simulator/chats.ts',
    'src/engines/simulator/contacts.ts',
    'src/engines/simulator/group.ts',
    'src/engines/simulator/kind-data.ts',
    'src/engines/simulator/messages.ts',
    'src/engines/simulator/phone-payload.ts',
    'src/engines/simulator/types.ts',
  ],
];

describe('import cycles (src/ and plugins/)', function () {
  this.timeout(30_000);
  const graph = importGraph(ROOT, ['src', 'plugins']);

  it('reads the whole tree', () => {
    expect(graph.size).to.be.greaterThan(250);
    const sdk = graph.get('src/sdk.ts') ?? [];
    expect(sdk.find((e) => e.to === 'src/config/validate.ts')?.typeOnly).to.equal(false);
    expect(sdk.find((e) => e.to === 'src/config/schema.ts')?.typeOnly).to.equal(true);
  });

  it('has no cycle through runtime imports', () => {
    expect(importCycles(graph, true)).to.deep.equal([]);
  });

  it('has no type-only cycle beyond the known ones, and the known ones only shrink', () => {
    const cycles = importCycles(graph, false);
    for (const cycle of cycles) {
      const known = KNOWN_TYPE_CYCLES.find((k) => cycle.every((f) => k.includes(f)));
      expect(known, `a new or grown import cycle: ${cycle.join(' → ')}`).to.not.equal(undefined);
    }
    const inCycles = new Set(cycles.flat());
    const stale = KNOWN_TYPE_CYCLES.flat().filter((f) => !inCycles.has(f));
    expect(stale, 'no longer in a cycle: take these off KNOWN_TYPE_CYCLES').to.deep.equal([]);
  });

  it('tells runtime cycles from type-only ones (a fixture tree)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
    try {
      const write = (file: string, code: string) => {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), code);
      };
      write('src/a.ts', "import { b } from './b.js';\nexport const a = b;\n");
      write('src/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
      write('src/c.ts', "import type { D } from './d.js';\nexport type C = D;\n");
      write(
        'src/d.ts',
        "import { type C } from './c.js';\nexport const d = 1;\nexport type D = C;\n",
      );
      write('src/e.ts', "export { d } from './d.js';\nimport './e.js';\n");
      const fixture = importGraph(dir, ['src']);
      expect(importCycles(fixture, true)).to.deep.equal([['src/a.ts', 'src/b.ts'], ['src/e.ts']]);
      expect(importCycles(fixture, false)).to.deep.equal([
        ['src/a.ts', 'src/b.ts'],
        ['src/c.ts', 'src/d.ts'],
        ['src/e.ts'],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
