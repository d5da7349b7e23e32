/**
 * `wakitjs/testing`: for a bot's own tests: `createTestSdk` (also in `wakitjs`) runs the bot's
 * configuration on the simulator with no calls out; `testConfig` is the configuration it uses.
 *
 * Stability: semver (docs/api-surface.md). Removing or renaming a name is a breaking change.
 */
export { createTestSdk, testConfig, type TestSdkOptions } from '../test-sdk.js';
export { VirtualClock } from '../kernel/virtual-clock.js';
export { testChat, type TestChat, type TestChatOptions } from '../testing/test-chat.js';
