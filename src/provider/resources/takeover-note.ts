import { canonicalJson } from '../../reconcile/keys';
import { UNKNOWN, type Value } from '../plugin/values';

/** Unknown values key as this text: they never equal a known value. */
const forJson = (value: Value): unknown =>
  value === UNKNOWN ? '(unknown)' : Array.isArray(value) ? value.map(forJson) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forJson(v)])) : value;

/**
 * The run note (run-notes.ts) under which a create's plan leaves what it read of what it takes over,
 * for the apply of the same run: the resource type and its configuration, the same text in any
 * process. The session adds the account.
 */
export const takeoverNoteKey = (typeName: string, config: Readonly<Record<string, Value>>): string => `${typeName} takes over ${canonicalJson(forJson(config))}`;
