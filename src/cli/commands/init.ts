import { notDelivered } from '../not-delivered.js';

export const initCommand = notDelivered('init', 'Scan this repo and write ctrlrun.yaml, ctrlrun.tools.yaml and src/ctrlrun.control.ts', 'ctrlrun-gen init');
