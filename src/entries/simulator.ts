/**
 * `wakitjs/simulator`: the in-process WhatsApp network for tests, demos and `wakit dev`
 * (docs/simulator.md), and the plugin of its REST routes. `import 'wakitjs'` does not load it; an
 * Sdk with `engine.type: "simulator"` loads it when it starts. Importing this entry loads it at
 * once, so `sdk.simulator` is there from `createSdk` on (before `start()`/`initialize()`).
 */
import * as simulator from '../engines/simulator/index.js';
import { provideSimulator } from '../engines/engine-loader.js';
import { simulatorPlugin } from '../simulator-plugin/index.js';

provideSimulator(simulator, simulatorPlugin);

export { simulatorPlugin, simulatorRoutes } from '../simulator-plugin/index.js';

export {
  SimulatorNetwork,
  SimulatorEngine,
  derivePhone,
  SIM_CHAT_HISTORY_LIMIT,
  SIM_INBOX_LIMIT,
  SIM_REGISTRY_LIMIT,
  type SimulatorNetworkOptions,
  type SimChatState,
  type SimCall,
  type SimCallState,
  type SimPictureVisibility,
  type SimActionEvent,
  type SimPhoneActions,
  type SimChannel,
  type SimChannelSpec,
  type SimGroup,
  type SimGroupAddPrivacy,
  type SimGroupEvent,
  type SimGroupSpec,
  type SimInboxMessage,
  type SimKindContent,
  type SimMediaContent,
  type SimPhone,
  type SimulatorEngineConfig,
} from '../engines/simulator/index.js';
