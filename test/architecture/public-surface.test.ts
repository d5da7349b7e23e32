/**
 * The public surface stays narrow (issue 30): the root entry (`wakitjs`, src/index.ts) exports at
 * most ROOT_CEILING names, and the plugin context (`PluginContext`) has at most CONTEXT_CEILING
 * members; the Engine port keeps to what a linked device does, its account operations in `ops`.
 * Counted with the TypeScript checker, the way a user's editor sees them: every export of
 * the module, values (classes included) and types, resolved through re-exports.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const INDEX = path.join(ROOT, 'src/index.ts');
const ENGINE = path.join(ROOT, 'src/engines/engine.ts');

/** Ceilings: lowered as the surface shrinks, never raised without a reason in the commit. */
// 42: defineConversation and the Conversation type (issue 37) are for bot authors; issue 40
// takes the http and contract namespaces out of the root
const ROOT_CEILING = 42;
// 11: ctx.conversations (issue 37), one member for conversations and chat state
// 12: ctx.schedule (issue 38): recurring jobs need the plugin's name (the fleet claims firings by
// plugin and job) and its error reports, which only the context has; a privilege would hand a
// plugin every other plugin's jobs
const CONTEXT_CEILING = 12;

interface Surface {
  values: string[];
  types: string[];
}

let program: ts.Program | undefined;
function checker(): ts.TypeChecker {
  program ??= ts.createProgram([INDEX, ENGINE], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  return program.getTypeChecker();
}

/** The exports of one module file: values (anything with a runtime meaning) and type-only names. */
function exportsOf(file: string): Surface {
  const check = checker();
  const source = program?.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  const symbol = check.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`${file} is not a module`);
  const surface: Surface = { values: [], types: [] };
  for (const exported of check.getExportsOfModule(symbol)) {
    const target =
      exported.flags & ts.SymbolFlags.Alias ? check.getAliasedSymbol(exported) : exported;
    const typeOnly = exported.declarations?.some(
      (d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly),
    );
    const isValue = !typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0;
    (isValue ? surface.values : surface.types).push(exported.name);
  }
  return surface;
}

/** The public members of an exported interface or class of `file`. */
function membersOf(file: string, name: string): string[] {
  const check = checker();
  const source = program?.getSourceFile(file);
  const module = source && check.getSymbolAtLocation(source);
  const exported = module && check.getExportsOfModule(module).find((s) => s.name === name);
  if (!exported) throw new Error(`${name} is not exported by ${file}`);
  const target =
    exported.flags & ts.SymbolFlags.Alias ? check.getAliasedSymbol(exported) : exported;
  return check
    .getPropertiesOfType(check.getDeclaredTypeOfSymbol(target))
    .map((p) => p.name)
    .filter((n) => !n.startsWith('#'));
}

describe('public surface (issue 30)', function () {
  this.timeout(120_000);

  it(`the root entry exports at most ${ROOT_CEILING} names`, () => {
    const { values, types } = exportsOf(INDEX);
    const total = values.length + types.length;
    expect(values, 'the root has values (createSdk)').to.include('createSdk');
    expect(total, `${values.length} values, ${types.length} types`).to.be.at.most(ROOT_CEILING);
  });

  it(`PluginContext has at most ${CONTEXT_CEILING} members`, () => {
    const members = membersOf(INDEX, 'PluginContext');
    expect(members).to.include.members(['options', 'log', 'on', 'command', 'send', 'onClose']);
    expect(members.length, members.join(', ')).to.be.at.most(CONTEXT_CEILING);
  });

  it('the Engine port has its lifecycle, sending and events; everything else is in ops, by area', () => {
    expect(membersOf(ENGINE, 'Engine')).to.have.members([
      'type',
      'start',
      'stop',
      'logout',
      'send',
      'forward',
      'downloadMedia',
      'me',
      'ops',
      'on',
      'off',
    ]);
    expect(membersOf(ENGINE, 'EngineOps')).to.have.members([
      'account',
      'chats',
      'contacts',
      'groups',
      'calls',
      'messages',
      'actions',
      'presence',
    ]);
  });
});
