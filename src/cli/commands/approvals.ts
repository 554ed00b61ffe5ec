import { notDelivered } from '../not-delivered.js';

export const approvalsCommand = notDelivered('approvals', 'List, show, approve or deny pending approvals', 'ctrlrun-gen approvals list --pending');
