import { notDelivered } from '../not-delivered.js';

export const explainCommand = notDelivered('explain', 'Explain which rule decides an action for given arguments', 'ctrlrun-gen explain stripe.refund --args \'{"amount": 5000}\'');
