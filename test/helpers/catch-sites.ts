/**
 * Every catch site of a TypeScript file, classified by what it does with the failure (issue 30,
 * "every failure reaches the sink"): `try/catch`, `.catch(handler)` and `.then(ok, handler)`.
 *
 * - `reports`: the handler calls a `report(` (the error sink, `ctx.report`);
 * - `rethrows`: `throw`, `Promise.reject` or `reject(`: the failure travels on;
 * - `explained`: the site carries a `// not reported: <why>` comment;
 * - `callback`: the handler is a function defined elsewhere (`.catch(onError)`): its owner decides;
 * - `swallows`: an empty handler, one that only returns a constant (`() => undefined`, `return false`);
 * - `logs`: the handler only logs (`.warn/.error/.info/.debug(`): the failure never reaches the sink;
 * - `handles`: anything else (turns it into a value, a state, an answer).
 */
import ts from 'typescript';

export type CatchClass =
  'reports' | 'rethrows' | 'explained' | 'callback' | 'swallows' | 'logs' | 'handles';

export interface CatchSite {
  /** The enclosing function (`Class.method`, `function`, or `<module>`). */
  where: string;
  line: number;
  kind: 'try' | 'catch' | 'then';
  class: CatchClass;
}

const LOG_METHODS = new Set(['warn', 'error', 'info', 'debug', 'trace', 'fatal']);
const NOT_REPORTED = /\/\/\s*not reported:/;

function isConstant(node: ts.Node): boolean {
  return (
    node.kind === ts.SyntaxKind.UndefinedKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    ts.isNumericLiteral(node) ||
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    (ts.isIdentifier(node) && node.text === 'undefined') ||
    (ts.isArrayLiteralExpression(node) && node.elements.length === 0) ||
    (ts.isObjectLiteralExpression(node) && node.properties.length === 0) ||
    (ts.isVoidExpression(node) && isConstant(node.expression)) ||
    (ts.isParenthesizedExpression(node) && isConstant(node.expression))
  );
}

function isLogCall(node: ts.Node): boolean {
  let expr = node;
  if (ts.isVoidExpression(expr)) expr = expr.expression;
  if (!ts.isCallExpression(expr)) return false;
  const callee = expr.expression;
  const name = ts.isPropertyAccessExpression(callee)
    ? callee.name.text
    : ts.isPropertyAccessChain(callee)
      ? (callee as ts.PropertyAccessExpression).name.text
      : undefined;
  return name !== undefined && LOG_METHODS.has(name);
}

/** The class of a handler body: a block, or an arrow function's expression. */
function classify(body: ts.Node, text: string): CatchClass {
  const code = body.getText();
  if (/\breport\s*\(/.test(code)) return 'reports';
  if (/\bthrow\b|Promise\.reject\b|\breject\s*\(/.test(code)) return 'rethrows';
  if (NOT_REPORTED.test(text)) return 'explained';
  if (ts.isBlock(body)) {
    const statements = body.statements;
    if (statements.length === 0) return 'swallows';
    if (
      statements.length === 1 &&
      ts.isReturnStatement(statements[0]) &&
      (!statements[0].expression || isConstant(statements[0].expression))
    ) {
      return 'swallows';
    }
    if (statements.every((s) => ts.isExpressionStatement(s) && isLogCall(s.expression))) {
      return 'logs';
    }
    return 'handles';
  }
  if (isConstant(body)) return 'swallows';
  if (isLogCall(body)) return 'logs';
  return 'handles';
}

function nameOf(node: ts.Node): string | undefined {
  if (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.name
  ) {
    return node.name.getText();
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    const parent = node.parent;
    if (
      (ts.isVariableDeclaration(parent) ||
        ts.isPropertyAssignment(parent) ||
        ts.isPropertyDeclaration(parent)) &&
      parent.name
    ) {
      return parent.name.getText();
    }
  }
  return undefined;
}

/** `Class.method` (or the function's own name) of the nearest named function around `node`. */
function enclosing(node: ts.Node): string {
  let name: string | undefined;
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    name ??= nameOf(at);
    if (name && (ts.isClassDeclaration(at) || ts.isClassExpression(at)) && at.name) {
      return `${at.name.text}.${name}`;
    }
  }
  return name ?? '<module>';
}

/** The catch sites of one source file. */
export function catchSites(fileName: string, source: string): CatchSite[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const sites: CatchSite[] = [];
  const add = (node: ts.Node, kind: CatchSite['kind'], handler: ts.Node): void => {
    // the site's own text with the comments before its statement (the `// not reported:` reason)
    let statement: ts.Node = node;
    while (
      statement.parent &&
      !ts.isExpressionStatement(statement) &&
      !ts.isVariableStatement(statement) &&
      !ts.isReturnStatement(statement) &&
      !ts.isTryStatement(statement) &&
      !ts.isBlock(statement.parent) &&
      !ts.isSourceFile(statement.parent)
    ) {
      statement = statement.parent;
    }
    const text =
      source.slice(statement.getFullStart(), statement.getStart()) +
      source.slice(node.getFullStart(), node.getEnd());
    let cls: CatchClass;
    if (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler)) {
      cls = classify(handler.body, text);
    } else if (ts.isBlock(handler)) {
      cls = classify(handler, text);
    } else {
      cls = NOT_REPORTED.test(text) ? 'explained' : 'callback';
    }
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    sites.push({ where: enclosing(node), line, kind, class: cls });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCatchClause(node)) add(node, 'try', node.block);
    else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if (method === 'catch' && node.arguments[0]) add(node, 'catch', node.arguments[0]);
      if (method === 'then' && node.arguments[1]) add(node, 'then', node.arguments[1]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sites;
}
