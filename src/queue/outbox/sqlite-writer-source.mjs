// The outbox's writer thread run from the TypeScript sources (tests, `npm run demo`): a worker on
// Node 20 does not inherit tsx's hooks from the thread that started it, so it registers them first.
import { register } from 'tsx/esm/api';

register();
await import('./sqlite-writer.ts');
