import { expect } from 'chai';
import { gcsStatus } from '../../src/auth/gcs-status.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';

describe('gcsStatus', () => {
  it('reads code, then status, then response.status, skipping non-HTTP codes', () => {
    expect(gcsStatus({ code: 412 })).to.equal(412);
    expect(gcsStatus({ status: 412, response: { status: 500 } })).to.equal(412);
    expect(gcsStatus({ code: 'ECONNRESET', response: { status: 503 } })).to.equal(503);
    expect(gcsStatus({ code: '404' })).to.equal(404);
    expect(gcsStatus({ code: 'FILE_NO_UPLOAD' })).to.equal(undefined);
    expect(gcsStatus(new Error('x'))).to.equal(undefined);
    expect(gcsStatus(null)).to.equal(undefined);
    expect(gcsStatus('412')).to.equal(undefined);
  });

  describe('with the real client errors', () => {
    let fake: FakeGcsServer;
    before(async () => {
      fake = await FakeGcsServer.start();
    });
    after(() => fake.close());

    for (const resumable of [false, true]) {
      it(`reads 412 from a failed ${resumable ? 'resumable' : 'multipart'} upload precondition`, async () => {
        const file = fake.storage().bucket('b').file(`obj-${resumable}`);
        await file.save('first', { resumable: false });
        const error = await file
          .save('second', { resumable, preconditionOpts: { ifGenerationMatch: 0 } })
          .catch((e: unknown) => e);
        expect(gcsStatus(error)).to.equal(412);
      });
    }

    it('reads 404 from a metadata GET and a download', async () => {
      const file = fake.storage().bucket('b').file('missing');
      expect(gcsStatus(await file.getMetadata().catch((e: unknown) => e))).to.equal(404);
      expect(gcsStatus(await file.download().catch((e: unknown) => e))).to.equal(404);
    });
  });
});
