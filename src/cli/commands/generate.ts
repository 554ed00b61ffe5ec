import { notDelivered } from '../not-delivered.js';

export const generateCommand = notDelivered('generate', 'Write the generated module of protected tools; --check exits 1 when it is stale', 'ctrlrun-gen generate --check');
