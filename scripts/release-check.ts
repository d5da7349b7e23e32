/**
 * The release step's changelog check (CONTRIBUTING.md, "Versions and releases").
 *
 * `npm run release:check` (also run by test/release/release-check.test.ts): CHANGELOG.md has an
 * `## [Unreleased]` section first, package.json's version has a section with content, and the
 * released sections are in order, newest first, each version once.
 *
 * It also fails when `packages/create-wakit` (`npm create wakit`) is not at the same version.
 *
 * `npm version <minor|patch>` runs it twice: `preversion` with `--release` (there must be
 * something to release: `[Unreleased]` must not be empty), then `version` with `--cut`, which
 * moves `[Unreleased]`'s content under the new version with today's date, sets create-wakit's
 * version, and stages both files for the version commit.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export interface ChangelogSection {
  /** `Unreleased` or a version such as `0.4.0`. */
  name: string;
  /** The heading's date (`## [0.4.0] - 2026-11-28`), if it has one. */
  date?: string;
  /** The section's lines after its heading, up to the next `## ` heading. */
  body: string;
}

const HEADING = /^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?\s*$/;
const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

export function parseChangelog(text: string): ChangelogSection[] {
  const sections: ChangelogSection[] = [];
  let current: ChangelogSection | undefined;
  for (const line of text.split('\n')) {
    const heading = HEADING.exec(line);
    if (heading) {
      current = { name: heading[1] ?? '', body: '' };
      if (heading[2]) current.date = heading[2];
      sections.push(current);
    } else if (current) {
      current.body += `${line}\n`;
    }
  }
  return sections;
}

/** True when a section says something: a line other than blank lines and `### ` headings. */
export function hasContent(section: ChangelogSection): boolean {
  return section.body.split('\n').some((line) => line.trim() !== '' && !line.startsWith('### '));
}

function compareVersions(a: string, b: string): number {
  const pa = VERSION.exec(a)?.slice(1).map(Number) ?? [];
  const pb = VERSION.exec(b)?.slice(1).map(Number) ?? [];
  for (let i = 0; i < 3; i += 1) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** The problems found, as sentences; none means the check passes. */
export function checkChangelog(
  text: string,
  version: string,
  options: { release?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const sections = parseChangelog(text);
  const unreleased = sections[0]?.name === 'Unreleased' ? sections[0] : undefined;
  if (!unreleased) problems.push('CHANGELOG.md must start with an "## [Unreleased]" section');
  else if (options.release && !hasContent(unreleased)) {
    problems.push('[Unreleased] is empty: there is nothing to release');
  }
  const released = sections.filter((section) => section.name !== 'Unreleased');
  for (const section of released) {
    if (!VERSION.test(section.name)) problems.push(`"${section.name}" is not a version (x.y.z)`);
  }
  const seen = new Set<string>();
  released.forEach((section, i) => {
    if (seen.has(section.name)) problems.push(`[${section.name}] appears twice`);
    seen.add(section.name);
    const next = released[i + 1];
    if (next && compareVersions(section.name, next.name) <= 0) {
      problems.push(`[${section.name}] must come before [${next.name}] (newest first)`);
    }
  });
  const entry = released.find((section) => section.name === version);
  if (!entry) problems.push(`package.json's version ${version} has no "## [${version}]" section`);
  else if (!hasContent(entry)) problems.push(`the [${version}] section is empty`);
  return problems;
}

/** The changelog with [Unreleased]'s content moved under `## [version] - date`. */
export function cutRelease(text: string, version: string, date: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => HEADING.exec(line)?.[1] === 'Unreleased');
  if (start < 0) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
  return [
    ...lines.slice(0, start + 1),
    '',
    `## [${version}] - ${date}`,
    ...lines.slice(start + 1),
  ].join('\n');
}

const CREATOR = 'packages/create-wakit/package.json';

/** create-wakit's version, or undefined where the package is not there. */
function creatorVersion(): string | undefined {
  if (!existsSync(CREATOR)) return undefined;
  return (JSON.parse(readFileSync(CREATOR, 'utf8')) as { version: string }).version;
}

function main(args: string[]): number {
  const changelogFile = 'CHANGELOG.md';
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  let text = readFileSync(changelogFile, 'utf8');
  if (args.includes('--cut') && creatorVersion() !== undefined) {
    const creator = JSON.parse(readFileSync(CREATOR, 'utf8')) as { version: string };
    writeFileSync(CREATOR, `${JSON.stringify({ ...creator, version }, null, 2)}\n`);
    execFileSync('git', ['add', CREATOR]);
  }
  if (args.includes('--cut')) {
    const pending = checkChangelog(text, version, { release: true }).filter(
      (problem) => !problem.startsWith("package.json's version"),
    );
    if (pending.length === 0) {
      text = cutRelease(text, version, new Date().toISOString().slice(0, 10));
      writeFileSync(changelogFile, text);
      execFileSync('git', ['add', changelogFile]);
    }
  }
  const problems = checkChangelog(text, version, { release: args.includes('--release') });
  const creator = creatorVersion();
  if (creator !== undefined && creator !== version) {
    problems.push(`create-wakit is at ${creator}, wakitjs at ${version}: one version for both`);
  }
  for (const problem of problems) console.error(`release check: ${problem}`);
  if (problems.length === 0) console.log(`release check: CHANGELOG.md has [${version}]`);
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
