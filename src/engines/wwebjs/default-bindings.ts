/**
 * The real whatsapp-web.js, loaded lazily by the engine (so that simulator users never load
 * puppeteer). whatsapp-web.js is CommonJS: it must be imported by its default export, named ESM
 * imports fail at run time.
 */
import wwebjs from 'whatsapp-web.js';
import type { ClientLike, WwebjsBindings } from './types.js';

const { Client, LocalAuth, RemoteAuth, MessageMedia, Location, Poll } = wwebjs;

export const defaultBindings: WwebjsBindings = {
  createClient: (options) =>
    new Client(options as unknown as wwebjs.ClientOptions) as unknown as ClientLike,
  createLocalAuth: (options) => new LocalAuth(options),
  createRemoteAuth: (options) => new RemoteAuth(options),
  createMedia: (mimetype, base64, filename) => new MessageMedia(mimetype, base64, filename),
  createLocation: (latitude, longitude, options) => new Location(latitude, longitude, options),
  createPoll: (question, options, send) =>
    new Poll(question, options, { ...send, messageSecret: undefined }),
};
