/** `ctrlrun-gen/testing`: helpers for testing stores and protected tools. */
export { describeStoreConformance, type ConformanceHarness } from './conformance.js';
