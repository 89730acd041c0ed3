import { randomUUID } from 'node:crypto';
import type { Value } from './values';

/**
 * What the provider keeps beside a resource's state (Terraform's `private` bytes): never shown in a
 * plan, carried from plan to apply and stored with the state.
 */
export interface PrivateState {
  /** Random per resource instance (create or import), so a replacement never meets its predecessor's keys. */
  readonly instance?: string;
  /**
   * How many applies changed something. Keys of a later apply differ, so A → B → A never takes the
   * first A's stored answer for success; an interrupted apply keeps its generation, so a re-run may replay.
   */
  readonly generation?: number;
  /** The values observed before this resource first changed them, per attribute (OnDestroy.RESTORE). */
  readonly restore?: Readonly<Record<string, Value>>;
  /** Which IP settings fields this token may edit, from the last read. */
  readonly editable?: Readonly<Record<string, boolean>>;
}

export function decodePrivate(bytes: Uint8Array | undefined): PrivateState {
  if (!bytes || bytes.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PrivateState) : {};
  } catch {
    return {};
  }
}

export function encodePrivate(state: PrivateState): Buffer {
  return Buffer.from(JSON.stringify(state));
}

/** A resource instance that has none yet gets one; everything else is kept. */
export function withInstance(state: PrivateState): PrivateState {
  return state.instance ? state : { ...state, instance: randomUUID() };
}

/** The part of every Idempotency-Key that names the resource instance and this apply. */
export function keyNamespace(state: PrivateState): string {
  return `${state.instance ?? 'unplanned'}.${state.generation ?? 0}`;
}

/**
 * After writes: the next generation, and the first observed value of each written attribute
 * (later changes keep the first, so RESTORE returns to what was there before this resource).
 */
export function afterWrites(state: PrivateState, observedBefore: Readonly<Record<string, Value>>): PrivateState {
  if (Object.keys(observedBefore).length === 0) return state;
  return { ...nextGeneration(state), restore: { ...observedBefore, ...state.restore } };
}

/** After an apply that acted: its keys are not used again. */
export function nextGeneration(state: PrivateState): PrivateState {
  return { ...state, generation: (state.generation ?? 0) + 1 };
}
