import { describeEngineContract } from './engine-contract.js';
import { simHarness } from '../helpers/sim-harness.js';

describeEngineContract('simulator', simHarness);
