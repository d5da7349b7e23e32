// The event lists of the docs are the events the code has, each named once (issue 29, item 8:
// paragraphs that listed them twice, differently).
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { ACCOUNT_EVENT_NAMES, CLIENT_EVENT_NAMES } from '../../src/entries/contract.js';

/** The backticked names between `from` and `to` in a Markdown file (links removed). */
async function namesBetween(file: string, from: string, to: string): Promise<string[]> {
  const text = (await read(file)).replace(/\]\([^)]*\)/g, ']');
  const start = text.indexOf(from);
  expect(start, `${file}: ${from}`).to.be.greaterThan(-1);
  const end = text.indexOf(to, start + from.length);
  return [...text.slice(start + from.length, end).matchAll(/`([a-z_.]+)`/g)].map((m) => m[1] ?? '');
}

/** A Markdown file with its line breaks as spaces (a phrase may be wrapped anywhere). */
const read = async (file: string) => (await readFile(file, 'utf8')).replace(/\s+/g, ' ');
const count = (text: string, phrase: string) => text.split(phrase).length - 1;

describe('event lists in the docs', () => {
  it('docs/plugins.md: ctx.on names every client event once, in one sentence', async () => {
    const names = await namesBetween(
      'docs/plugins.md',
      'works for every client event:',
      'A handler receives',
    );
    expect(names).to.have.members([...CLIENT_EVENT_NAMES, 'error']);
    const text = await read('docs/plugins.md');
    expect(count(text, 'A handler receives `(event, next)`')).to.equal(1);
    expect(count(text, 'sends media; `data` is')).to.equal(1);
    expect(count(text, '`data` is a')).to.equal(1);
  });

  it('docs/rest-api.md: the SSE event types are the ones the stream carries, once', async () => {
    const names = await namesBetween(
      'docs/rest-api.md',
      '`text/event-stream`. Event types:',
      'Both filters',
    );
    expect(names).to.have.members([...ACCOUNT_EVENT_NAMES]);
    const text = await read('docs/rest-api.md');
    expect(count(text, 'Both filters are optional')).to.equal(1);
  });
});
