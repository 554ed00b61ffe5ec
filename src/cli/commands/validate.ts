import { notDelivered } from '../not-delivered.js';

export const validateCommand = notDelivered('validate', 'Load and check the policy and the manifest', 'ctrlrun-gen validate');
