import { expect } from 'chai';
import { z } from 'zod';
import { MAX_ISSUES, capIssues, issueError, zodIssues } from '../../src/entries/http.js';

describe('issue lists (VALIDATION_FAILED / CONFIG_INVALID)', () => {
  it('lists every problem with its path, once, in one error', () => {
    const result = z.object({ a: z.string(), b: z.number() }).strict().safeParse({ b: 'x' });
    const error = issueError('VALIDATION_FAILED', 'Invalid body', zodIssues(result.error!, ['x']));
    expect(error.code).to.equal('VALIDATION_FAILED');
    expect(error.issues!.map((i) => i.path)).to.deep.equal(['x.a', 'x.b']);
    expect(error.message).to.match(/^Invalid body: x\.a: .+; x\.b: .+/);
  });

  it('configuration errors put one problem per line', () => {
    const error = issueError('CONFIG_INVALID', 'The configuration is invalid', [
      { path: 'auth.type', message: 'required' },
      { path: 'log.level', message: 'unknown level' },
    ]);
    expect(error.message.split('\n')).to.deep.equal([
      'The configuration is invalid:',
      '  - auth.type: required',
      '  - log.level: unknown level',
    ]);
  });

  it('caps what it echoes: 40,000 unknown keys give a bounded error', () => {
    const input = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, i]));
    const result = z.object({}).strict().safeParse(input);
    const error = issueError('VALIDATION_FAILED', 'Invalid body', zodIssues(result.error!));
    expect(JSON.stringify(error.toJSON()).length).to.be.below(2_000);
  });

  it(`keeps at most ${MAX_ISSUES} issues and counts the rest`, () => {
    const issues = Array.from({ length: 1_000 }, (_, i) => ({ path: `k${i}`, message: 'bad' }));
    const error = issueError('VALIDATION_FAILED', 'Invalid body', issues);
    expect(error.issues).to.have.length(MAX_ISSUES + 1);
    expect(error.issues!.at(-1)!.message).to.equal(`… and ${1_000 - MAX_ISSUES} more problems`);
  });

  it('caps a capped list to itself (the REST boundary caps again what reaches it)', () => {
    const issues = Array.from({ length: 1_000 }, (_, i) => ({ path: `k${i}`, message: 'bad' }));
    const once = capIssues(issues);
    expect(capIssues(once)).to.deep.equal(once);
    expect(capIssues(once).at(-1)!.message).to.equal(`… and ${1_000 - MAX_ISSUES} more problems`);
    const long = capIssues([{ path: 'p'.repeat(5_000), message: 'm'.repeat(5_000) }]);
    expect(long[0].path.length).to.be.below(400);
    expect(long[0].message.length).to.be.below(400);
  });
});
