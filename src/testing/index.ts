/** `ctrlrun-gen/testing`: helpers for testing stores and protected tools. */
export { describeStoreConformance, type ConformanceHarness } from './conformance.js';
export { describeDecisionLogConformance } from './decision-log-conformance.js';
