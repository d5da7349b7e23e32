// The SDK compiles without `emitDecoratorMetadata`, so tsyringe learns a constructor's parameters
// only from `@inject(TOKEN)`: an `@injectable` class with an unmarked parameter fails at resolve
// time ("TypeInfo not known"). This checks every such class in src/ and plugins/ statically.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/** `Class.constructor(param #i)` for every constructor parameter of an @injectable class without @inject. */
function unmarkedParameters(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const named = (node: ts.Node, name: string): boolean =>
    (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []).some((d) => {
      const call = d.expression;
      return ts.isCallExpression(call) && ts.isIdentifier(call.expression)
        ? call.expression.text === name
        : false;
    });
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) && named(node, 'injectable')) {
      const ctor = node.members.find(ts.isConstructorDeclaration);
      ctor?.parameters.forEach((param, i) => {
        if (!named(param, 'inject')) {
          found.push(`${file}: ${node.name?.text ?? 'class'}.constructor(param #${i})`);
        }
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('kernel: every @injectable constructor parameter carries @inject', () => {
  it('holds for src/ and plugins/', () => {
    const files = [...sourcesUnder('src'), ...sourcesUnder('plugins')];
    const injectable = files.filter((f) => readFileSync(f, 'utf8').includes('@injectable'));
    expect(injectable.length).to.be.at.least(2);
    const unmarked = injectable.flatMap((f) => unmarkedParameters(f, readFileSync(f, 'utf8')));
    expect(unmarked).to.deep.equal([]);
  });

  it('finds a parameter without @inject', () => {
    const code = `
      @injectable()
      class Store {
        constructor(@inject(LOGGER) log: Logger, clock: Clock) {}
      }`;
    expect(unmarkedParameters('x.ts', code)).to.deep.equal(['x.ts: Store.constructor(param #1)']);
  });
});
