// `npm create wakit@latest <dir> [-- --template rest-api|ai] [--no-install]`: the `wakit create` of
// wakitjs, bundled with its templates so that it installs in a second and needs nothing else.
import { parseArgs } from 'node:util';
import { createProject, TEMPLATES } from '../../../src/cli/create.js';
import { describeError, processIo } from '../../../src/cli/io.js';

const USAGE = `Usage: npm create wakit@latest <dir> [-- --template ${TEMPLATES.join('|')}] [--no-install]

  -t, --template <name>   ${TEMPLATES.join(' or ')} (default: basic)
  --no-install            do not run npm install
  --inside-package        allow a directory inside another npm package (a monorepo)`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      template: { type: 'string', short: 't', default: 'basic' },
      install: { type: 'boolean', default: true },
      'no-install': { type: 'boolean', default: false },
      'inside-package': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const dir = positionals[0];
  if (values.help || dir === undefined) {
    processIo.out(USAGE);
    return values.help ? 0 : 1;
  }
  return createProject(
    dir,
    {
      template: values.template,
      install: values.install && !values['no-install'],
      insidePackage: values['inside-package'],
    },
    processIo,
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    processIo.err(`create-wakit: ${describeError(error)}`);
    process.exit(1);
  },
);
