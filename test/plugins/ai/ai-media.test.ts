// Images and voice notes for the ai plugin, against the local fake model: an image goes to the
// model as a data URL part with its caption (`vision`), a larger one gets the polite answer; a
// voice note is transcribed by the endpoint's speech-to-text (`transcription`) and answered, a
// failing transcription gets the fallback; without either option, the polite mediaMessage.
import { expect } from 'chai';
import { createAiPlugin, type AiOptionsInput } from '../../../plugins/ai/index.js';
import { testChat } from '../../../src/entries/testing.js';
import { ALICE, ALICE_ID, pluginFixture, type PluginFixture } from '../plugin-helpers.js';
import { cleanUp, fakeModel, type FakeModel, type Step } from './fake-model.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex').toString('base64');
const OGG = Buffer.from('OggS-fake-voice-note-bytes').toString('base64');

describe('ai plugin: images and voice notes (local fake model)', function () {
  this.timeout(15_000);
  let fx: PluginFixture;
  let model: FakeModel;
  afterEach(() => cleanUp(fx, model));

  async function start(script: Step[], options: Partial<AiOptionsInput> = {}) {
    model = await fakeModel(script);
    fx = await pluginFixture();
    fx.sdk.use(createAiPlugin(), {
      baseURL: model.baseURL,
      model: 'fake-model',
      systemPrompt: 'S',
      ...options,
    });
    await fx.start();
    return testChat(fx.sdk, ALICE);
  }

  it('vision: the image goes as a data URL part with its caption; memory keeps "[image] caption"', async () => {
    const alice = await start([{ text: 'A cake!' }, { text: 'Yes.' }], { vision: true });
    await alice.send({ type: 'image', data: PNG, mimetype: 'image/png', caption: 'what is it?' });
    await alice.expectReply('A cake!');
    expect(model.requests[0]?.messages.at(-1)).to.deep.equal({
      role: 'user',
      content: [
        { type: 'text', text: 'what is it?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    });
    await alice.expectNoReply();
    await alice.send('sure?');
    await alice.expectReply('Yes.');
    expect(model.requests[1]?.messages.map((m) => m.content)).to.deep.equal([
      'S',
      '[image] what is it?',
      'A cake!',
      'sure?',
    ]);
  });

  it('vision: an image over maxImageBytes gets mediaMessage and no model call', async () => {
    const big = Buffer.alloc(3_000, 1).toString('base64');
    const alice = await start([{ text: 'never' }], { vision: true, maxImageBytes: 2_000 });
    await alice.send({ type: 'image', data: big, mimetype: 'image/png' });
    await alice.expectReply('Sorry, I can only read text messages for now.');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(0);
  });

  it('transcription: a voice note is transcribed on the same endpoint, then answered', async () => {
    const alice = await start([{ text: 'Open 8 to 18.' }], {
      transcription: { model: 'whisper-1', language: 'en' },
    });
    model.transcripts.push('when are you open?');
    await alice.send({ type: 'ptt', data: OGG, mimetype: 'audio/ogg; codecs=opus' });
    await alice.expectReply('Open 8 to 18.');
    await alice.expectNoReply();
    expect(model.transcriptions).to.have.length(1);
    const multipart = model.transcriptions[0] ?? '';
    expect(multipart).to.match(/name="model"\r\n\r\nwhisper-1\r\n/);
    expect(multipart).to.match(/name="language"\r\n\r\nen\r\n/);
    expect(multipart).to.include('OggS-fake-voice-note-bytes');
    expect(model.requests[0]?.messages.at(-1)).to.deep.equal({
      role: 'user',
      content: 'when are you open?',
    });
  });

  it('transcription fails: the fallback once, reported, no model call', async () => {
    const alice = await start([{ text: 'never' }], { transcription: { model: 'whisper-1' } });
    model.transcripts.push({ status: 500 });
    await alice.send({ type: 'ptt', data: OGG, mimetype: 'audio/ogg' });
    await alice.expectReply('Sorry, I cannot answer right now. Please try again in a moment.');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(0);
    expect(fx.errors.map((e) => e.error.code)).to.deep.equal(['INTERNAL']);
  });

  it('without vision or transcription: the polite mediaMessage, nothing sent to the endpoint', async () => {
    const alice = await start([{ text: 'never' }]);
    await alice.send({ type: 'ptt', data: OGG, mimetype: 'audio/ogg' });
    await alice.expectReply('Sorry, I can only read text messages for now.');
    await alice.send({ type: 'image', data: PNG, mimetype: 'image/png' });
    await alice.expectReply('Sorry, I can only read text messages for now.');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(0);
    expect(model.transcriptions).to.have.length(0);
    expect((await fx.sdk.chats.mode('bot', ALICE_ID)).mode).to.equal('bot');
  });
});
