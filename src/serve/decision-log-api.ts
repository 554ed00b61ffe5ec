import { storeDecisionKey, tenantDecisionKey } from '../runtime/decision-log.js';
import type { DecisionBody, DecisionQuery, Store } from '../runtime/types.js';
import { ownsReceipt, TenantRefusal, type TenantScope } from './tenant.js';

/**
 * The decision log over serve's store API, inside the runtime token's tenant: an entry goes in with
 * its call id and effect key in stored form (as its receipt's are, so the receipt binding holds);
 * a named tenant lists only its own entries, the default tenant the whole log (to verify it).
 */
export async function decisionStoreCall(
  store: Store,
  scope: TenantScope,
  tenant: string | undefined,
  method: 'appendDecision' | 'listDecisions' | 'decisionKey',
  args: unknown[],
): Promise<unknown> {
  if (typeof store.appendDecision !== 'function' || typeof store.listDecisions !== 'function')
    throw new TenantRefusal(`${method}: this server's store keeps no decision log.`);
  if (method === 'decisionKey') {
    // a named tenant's key is derived from the store's: its hashes never compare with another tenant's
    const key = await storeDecisionKey(store);
    return tenant === undefined ? key : tenantDecisionKey(key, tenant);
  }
  if (method === 'appendDecision') {
    const body = args[0] as DecisionBody;
    if (typeof body !== 'object' || body === null) throw new TenantRefusal('appendDecision(body, retainAfter?): the body is an object.');
    const retainAfter = typeof args[1] === 'number' ? args[1] : undefined;
    return store.appendDecision(
      {
        ...body,
        call_id: body.call_id === null ? null : scope.inward(body.call_id),
        effect_key: body.effect_key === null ? null : scope.inward(body.effect_key),
      },
      retainAfter,
    );
  }
  const all = await store.listDecisions(args[0] as DecisionQuery | undefined);
  return tenant === undefined ? all : all.filter((e) => ownsReceipt(scope, e));
}
