// What an agent sees of a failure (plugins/rest/mcp/mcp-tool.ts): wakit's code and message; an
// error that is not a WakitError is INTERNAL with no message of its own, reported to the sink once.
import { expect } from 'chai';
import { WakitError } from '../../../src/index.js';
import { toolError } from '../../../plugins/rest/mcp/mcp-tool.js';

describe('MCP tool errors', () => {
  it('keep the code, message and details of a WakitError, and hide the details of a 5xx', () => {
    const reported: unknown[] = [];
    const report = (error: unknown) => void reported.push(error);
    const forbidden = new WakitError('FORBIDDEN', 'This token may not access client bot', {
      details: { client: 'bot' },
    });
    expect(toolError(forbidden, { report })).to.deep.equal({
      code: 'FORBIDDEN',
      status: 403,
      message: 'This token may not access client bot',
      details: { client: 'bot' },
    });
    const engine = new WakitError('ENGINE_ERROR', 'The page failed', { details: { at: 'x' } });
    expect(toolError(engine, { report })).to.not.have.property('details');
    expect(reported).to.deep.equal([]);
  });

  it('turn anything else into INTERNAL without its message, reported once', () => {
    const reported: unknown[] = [];
    const bug = new TypeError('cannot read properties of undefined (secret path /srv/x)');
    const answer = toolError(bug, { report: (error) => void reported.push(error) });
    expect(answer).to.deep.equal({ code: 'INTERNAL', status: 500, message: 'Internal error' });
    expect(reported).to.deep.equal([bug]);
  });
});
