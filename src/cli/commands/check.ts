import { notDelivered } from '../not-delivered.js';

export const checkCommand = notDelivered('check', 'Lint the repo for open doors (CI)', 'ctrlrun-gen check --format sarif');
