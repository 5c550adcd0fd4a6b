import type { AttributeValue, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import {
  type FieldDeclarations,
  transactionFields,
} from '../../../lambda/callback/transaction-fields.js';
import {
  lastChanges,
  type Resolution,
  settlementAttributes as settle,
} from '../../../lambda/settle/settlement.js';
import {
  contentAttributesOf,
  deliveryAttributes,
} from '../../../lambda/settle/written-attributes.js';
import { attributes } from '../../../lambda/storage/table-definition.js';
import { timeShard, usernameKey } from '../../../lambda/storage/transaction-item.js';
import type { ConflictView, Item, ReferenceState } from '../../table/reference-state.js';

/** What the operator decided, and who, when and why. */
export interface Decision {
  readonly accept: 'received' | 'stored';
  readonly actor: string;
  readonly reason: string;
  /** ISO-8601, UTC. */
  readonly at: string;
}

/**
 * The single conditional UpdateItem that records a decision on the transaction item: it holds
 * only if the item is still the revision the operator's command read (every settle write moves
 * the revision), so of two operators settling at once exactly one succeeds.
 *
 * `stored`: adds the decision under `settlements`; the content is untouched.
 * `received`: the conflict's content and delivery replace the stored ones; the version before
 * is appended to `history` with who replaced it, when and why; both contents get a decision
 * (the accepted one `received`, the replaced one `superseded`), so a redelivery of the accepted
 * content is a duplicate and one of the replaced content a quiet 409. `receivedAt` stays when
 * the reference was first recorded: the transaction keeps its place in the time index.
 */
export function settleUpdate(
  tableName: string,
  state: ReferenceState,
  conflict: ConflictView,
  decision: Decision,
  fields: FieldDeclarations = transactionFields,
): UpdateItemCommandInput {
  const stored = state.transaction as Item;
  const contentAttributes = contentAttributesOf(fields);
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  let n = 0;
  const set = (name: string, value: AttributeValue) => {
    names[`#a${n}`] = name;
    values[`:a${n}`] = value;
    sets.push(`#a${n} = :a${n}`);
    n++;
  };
  const remove = (name: string) => {
    names[`#a${n}`] = name;
    removes.push(`#a${n}`);
    n++;
  };

  const version = decision.accept === 'received' ? state.version + 1 : state.version;
  const decided = (resolution: Resolution): AttributeValue => ({
    M: {
      resolution: { S: resolution },
      settledAt: { S: decision.at },
      settledBy: { S: decision.actor },
      reason: { S: decision.reason },
      version: { N: String(version) },
    },
  });
  const settlements = { ...(stored[settle.settlements]?.M ?? {}) };
  settlements[conflict.fingerprint] = decided(decision.accept);

  if (decision.accept === 'received') {
    const received = conflict.item.transaction?.M ?? {};
    const storedFingerprint = stored.fingerprint?.S ?? '';
    settlements[storedFingerprint] = decided('superseded');
    // Whatever the received content carries is content, declared under this declaration or not.
    const content = new Set([...contentAttributes, ...Object.keys(received)]);
    content.delete(attributes.reference);
    for (const name of content) {
      const value = received[name];
      if (value !== undefined) set(name, value);
      else if (stored[name] !== undefined) remove(name);
    }
    for (const name of deliveryAttributes) {
      const value = conflict.item[name];
      if (value !== undefined) set(name, value);
      // What the accepted delivery lacks, the stored one's is not its own: removed.
      else if (stored[name] !== undefined) remove(name);
    }
    const username = received.username?.S ?? '';
    const indexKey = usernameKey(username)[attributes.usernameKey];
    if (indexKey) set(attributes.usernameKey, indexKey);
    else if (stored[attributes.usernameKey]) remove(attributes.usernameKey);
    // Written with the correction, so a corrected item is always in the time index.
    set(attributes.timeShard, { S: String(timeShard(state.reference)) });
    set(settle.version, { N: String(version) });
    set(settle.correction, {
      M: {
        version: { N: String(version) },
        settledAt: { S: decision.at },
        settledBy: { S: decision.actor },
        reason: { S: decision.reason },
        deliveredAt: { S: conflict.firstReceivedAt },
      },
    });
    names['#history'] = settle.history;
    values[':empty'] = { L: [] };
    values[':entry'] = { L: [historyEntry(stored, state.version, decision, contentAttributes)] };
    sets.push('#history = list_append(if_not_exists(#history, :empty), :entry)');
  }
  set(settle.settlements, { M: settlements });
  set(settle.revision, { N: String((state.revision ?? 0) + 1) });
  set(settle.lastChange, {
    S: decision.accept === 'received' ? lastChanges.correction : lastChanges.settlement,
  });

  // The revision the command read, or none yet; and the content it read, belt and braces.
  names['#reference'] = attributes.reference;
  names['#fingerprint'] = 'fingerprint';
  names['#revision'] = settle.revision;
  values[':seen'] = { S: stored.fingerprint?.S ?? '' };
  const revision =
    state.revision === undefined ? 'attribute_not_exists(#revision)' : '#revision = :revision';
  if (state.revision !== undefined) values[':revision'] = { N: String(state.revision) };

  return {
    TableName: tableName,
    Key: { [attributes.reference]: { S: state.reference } },
    UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: `attribute_exists(#reference) AND #fingerprint = :seen AND ${revision}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * The version a correction replaces: its content, its delivery, how it came to be (absent for
 * the gateway's first delivery), and who replaced it, when and why.
 */
function historyEntry(
  stored: Item,
  version: number,
  decision: Decision,
  contentAttributes: readonly string[],
): AttributeValue {
  const content: Item = {};
  for (const name of [attributes.reference, ...contentAttributes]) {
    const value = stored[name];
    if (value !== undefined) content[name] = value;
  }
  const entry: Item = {
    version: { N: String(version) },
    transaction: { M: content },
    // The first version was delivered when the reference was recorded; a later one, when the
    // conflict that became it first came.
    deliveredAt: stored[settle.correction]?.M?.deliveredAt ??
      stored[attributes.receivedAt] ?? { S: '' },
    supersededAt: { S: decision.at },
    supersededBy: { S: decision.actor },
    reason: { S: decision.reason },
  };
  for (const name of deliveryAttributes) {
    const value = stored[name];
    if (value !== undefined) entry[name] = value;
  }
  const correction = stored[settle.correction];
  if (correction !== undefined) entry.correction = correction;
  return { M: entry };
}
