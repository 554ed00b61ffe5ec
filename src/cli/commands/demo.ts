import { notDelivered } from '../not-delivered.js';

export const demoCommand = notDelivered('demo', 'Run the whole loop on the bundled sample, with no API key', 'ctrlrun-gen demo');
