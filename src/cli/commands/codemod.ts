import { notDelivered } from '../not-delivered.js';

export const codemodCommand = notDelivered('codemod', "Rewrite the repo's SDK tool() calls to protectedTool()", 'ctrlrun-gen codemod --write');
