import { expect } from 'chai';
import { isPlaceholderToken, restOptionsSchema } from '../../../plugins/rest/options.js';

const problems = (token: string): string[] => {
  const result = restOptionsSchema.safeParse({ tokens: [{ token }] });
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('REST token checks', () => {
  it('refuses tokens shorter than 32 characters, with the openssl hint', () => {
    const messages = problems('a'.repeat(8) + 'Zq3-9fT1kLm0pQ2wX7y');
    expect(messages.join())
      .to.include('at least 32 characters')
      .and.include('openssl rand -hex 32');
  });

  it('refuses placeholder tokens from examples even when they are long', () => {
    for (const token of [
      'change-me-to-a-long-random-token',
      'replace-me-with-the-output-of-openssl-rand-hex-32',
      'your-token-goes-here-please-0123456789',
      'x'.repeat(40),
      'CHANGEME-CHANGEME-CHANGEME-CHANGEME',
    ]) {
      expect(isPlaceholderToken(token), token).to.equal(true);
      expect(problems(token).join(), token).to.include('placeholder').and.include('openssl');
    }
  });

  it('accepts a random 64-character hex token', () => {
    const token = '9b1e5c0d7a3f4e2b8c6d1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d';
    expect(isPlaceholderToken(token)).to.equal(false);
    expect(problems(token)).to.deep.equal([]);
  });
});
