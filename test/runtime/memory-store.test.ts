import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/runtime/index.js';
import { describeStoreConformance } from '../../src/testing/index.js';

describeStoreConformance('memory', async () => memoryStore(), { describe, it, expect, beforeEach, afterEach });
