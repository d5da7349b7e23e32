/**
 * The TypeScript half of the codemods (scripts/codemod-*.ts): builds the repository's program from
 * tsconfig.json, asks `edits` for each source file's replacements (found with the type checker)
 * and writes them. `only`: these files (default: every source file of the program).
 */
import { writeFile } from 'node:fs/promises';
import ts from 'typescript';

/** A replacement: the text from `start` to `end` becomes `text`. */
export type Edit = [start: number, end: number, text: string];

export async function rewriteSources(
  edits: (checker: ts.TypeChecker, file: ts.SourceFile) => Edit[],
  only: readonly string[] = [],
): Promise<number> {
  const config = ts.getParsedCommandLineOfConfigFile(
    'tsconfig.json',
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('no tsconfig.json');
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const wanted = new Set(only.map((f) => ts.sys.resolvePath(f)));
  let total = 0;
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
    if (wanted.size > 0 && !wanted.has(ts.sys.resolvePath(file.fileName))) continue;
    const found = edits(checker, file).sort((a, b) => b[0] - a[0]);
    if (found.length === 0) continue;
    let text = file.getFullText();
    for (const [start, end, replacement] of found) {
      text = text.slice(0, start) + replacement + text.slice(end);
    }
    await writeFile(file.fileName, text);
    total += found.length;
    console.log(
      `${ts.sys.resolvePath(file.fileName).replace(`${process.cwd()}/`, '')}: ${found.length}`,
    );
  }
  return total;
}
