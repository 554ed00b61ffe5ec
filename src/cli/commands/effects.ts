import { notDelivered } from '../not-delivered.js';

export const effectsCommand = notDelivered('effects', 'List effect keys and resolve ambiguous ones', 'ctrlrun-gen effects list --state ambiguous');
