import { notDelivered } from '../not-delivered.js';

export const receiptsCommand = notDelivered('receipts', 'List receipts and verify the evidence chain', 'ctrlrun-gen receipts verify');
