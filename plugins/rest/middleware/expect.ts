/**
 * `Expect:` headers other than `100-continue` never reach Koa: Node answers them itself with a
 * bare 417. This listener (`checkExpectation`) answers with a problem+json 417 instead.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, toProblem } from './problem.js';
import { WakitError } from '../../../src/index.js';

export function answerExpectationFailed(req: IncomingMessage, res: ServerResponse): void {
  const problem = toProblem(
    new WakitError(
      'EXPECTATION_FAILED',
      'Only "Expect: 100-continue" is supported; send the request without this Expect header',
    ),
  );
  const body = JSON.stringify(problem);
  req.resume();
  res.writeHead(417, {
    'Content-Type': PROBLEM_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  });
  // an answer to HEAD has no body (a client would read it as the start of the next answer)
  res.end(req.method === 'HEAD' ? undefined : body);
}
