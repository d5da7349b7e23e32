import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkChangelog, cutRelease, parseChangelog } from '../../scripts/release-check.js';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');
const SCRIPT = path.resolve('scripts/release-check.ts');

const GOOD = `# Changelog

## [Unreleased]

### Added

- Something new.

## [0.4.0] - 2026-11-28

### Changed

- A break, with how to migrate.

## [0.1.0]

The first version.
`;

/** Runs the release check in a folder holding the given package.json version and changelog. */
async function releaseCheck(
  version: string,
  changelog: string,
  args: string[] = [],
  creatorVersion?: string,
): Promise<{ code: number; output: string; changelog: string; creator?: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wakit-release-'));
  const creatorFile = path.join(dir, 'packages/create-wakit/package.json');
  try {
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ version }));
    await writeFile(path.join(dir, 'CHANGELOG.md'), changelog);
    if (creatorVersion) {
      await mkdir(path.dirname(creatorFile), { recursive: true });
      await writeFile(
        creatorFile,
        JSON.stringify({ name: 'create-wakit', version: creatorVersion }),
      );
    }
    await run('git', ['init', '-q'], { cwd: dir });
    const result = await run(TSX, [SCRIPT, ...args], { cwd: dir }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        output: error.stdout + error.stderr,
      }),
    );
    return {
      ...result,
      changelog: await readFile(path.join(dir, 'CHANGELOG.md'), 'utf8'),
      ...(creatorVersion
        ? {
            creator: (JSON.parse(await readFile(creatorFile, 'utf8')) as { version: string })
              .version,
          }
        : {}),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('release: the changelog check (npm run release:check)', function () {
  this.timeout(20_000);

  it("passes on this repository: package.json's version has its CHANGELOG.md section", async () => {
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const text = await readFile('CHANGELOG.md', 'utf8');
    expect(checkChangelog(text, version)).to.deep.equal([]);
    expect(parseChangelog(text)[0]?.name).to.equal('Unreleased');
    expect(version).to.not.equal('0.1.0');
  });

  it('fails (exit 1, says why) when the version has no section', async () => {
    const result = await releaseCheck('0.5.0', GOOD);
    expect(result.code).to.equal(1);
    expect(result.output).to.include('package.json\'s version 0.5.0 has no "## [0.5.0]" section');
    expect((await releaseCheck('0.4.0', GOOD)).code).to.equal(0);
  });

  it("fails when the version's section is empty, out of order, or [Unreleased] is missing", () => {
    const empty = GOOD.replace('- A break, with how to migrate.', '');
    expect(checkChangelog(empty, '0.4.0')).to.deep.equal(['the [0.4.0] section is empty']);
    const swapped = GOOD.replace('## [0.4.0] - 2026-11-28', '## [0.0.9]');
    expect(checkChangelog(swapped, '0.1.0')).to.deep.equal([
      '[0.0.9] must come before [0.1.0] (newest first)',
    ]);
    const noUnreleased = GOOD.replace('## [Unreleased]', '## [0.5.0]');
    expect(checkChangelog(noUnreleased, '0.4.0')[0]).to.equal(
      'CHANGELOG.md must start with an "## [Unreleased]" section',
    );
  });

  it('at release time (--release, npm preversion) an empty [Unreleased] fails', async () => {
    const nothing = GOOD.replace('### Added\n\n- Something new.\n', '### Added\n');
    expect(checkChangelog(nothing, '0.4.0')).to.deep.equal([]);
    const result = await releaseCheck('0.4.0', nothing, ['--release']);
    expect(result.code).to.equal(1);
    expect(result.output).to.include('[Unreleased] is empty: there is nothing to release');
    expect((await releaseCheck('0.4.0', GOOD, ['--release'])).code).to.equal(0);
  });

  it('create-wakit must be at the same version (npm create wakit pins ^version)', async () => {
    const result = await releaseCheck('0.4.0', GOOD, [], '0.1.0');
    expect(result.code).to.equal(1);
    expect(result.output).to.include('create-wakit is at 0.1.0, wakitjs at 0.4.0');
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const creator = JSON.parse(await readFile('packages/create-wakit/package.json', 'utf8')) as {
      version: string;
    };
    expect(creator.version).to.equal(version);
  });

  it('--cut (npm version) moves [Unreleased] under the new version, dated, and sets create-wakit', async () => {
    const result = await releaseCheck('0.5.0', GOOD, ['--cut'], '0.4.0');
    expect(result.code).to.equal(0);
    expect(result.creator).to.equal('0.5.0');
    const sections = parseChangelog(result.changelog);
    expect(sections.map((section) => section.name)).to.deep.equal([
      'Unreleased',
      '0.5.0',
      '0.4.0',
      '0.1.0',
    ]);
    expect(sections[0]?.body.trim()).to.equal('');
    expect(sections[1]?.body).to.include('- Something new.');
    expect(sections[1]?.date).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(cutRelease(GOOD, '0.5.0', '2026-12-01')).to.include(
      '## [Unreleased]\n\n## [0.5.0] - 2026-12-01\n\n### Added',
    );
  });
});
