import { join, sep } from 'node:path';
import type { IConstruct } from 'constructs';
import { Bridge } from './bridge';
import { Token, Tokenization } from './cdk';
import { didYouMeanServerId, IPV4_PATTERN, quotedShort, RDNS_PATTERN, SERVER_ID_PATTERN, settingTooLarge } from '../contract/patterns';
import { MAX_TIMEOUT_SECONDS } from '../contract/resource-document';

/*
 * Synth-time checks. Each error names the construct path, the prop, the value and why; values that
 * are unresolved cdktf tokens are left for the handler to check at apply time.
 */

export class ValidationError extends Error {
  constructor(scope: IConstruct, prop: string, problem: string) {
    const message = `${scope.constructor.name} at ${scope.node.path}: ${inReaderWords(prop)} ${problem}`;
    super(pythonDrives() ? inPythonWords(message) : message);
    this.name = 'ValidationError';
    // jsii raises the message as a RuntimeError from a JavaScriptError holding the stack, and
    // prints both: for Python the stack only points at the message, which is then said once, last.
    // A TypeScript user keeps the frames of their own program, which say where the construct was
    // made, and none of ours.
    this.stack = pythonDrives() ? `${this.name} (the RuntimeError below says why)` : withoutLibraryFrames(this.stack ?? '');
  }
}

/** This library's own folders (`lib/` when installed, `src/` in this repository). */
const LIBRARY_FOLDERS = ['lib', 'src'].map((folder) => join(__dirname, '..', '..', folder) + sep);

/** A stack without the frames of this library's files: the message first, then the caller's frames. */
export function withoutLibraryFrames(stack: string): string {
  return stack.split('\n').filter((line) => !/^\s+at /.test(line) || !LIBRARY_FOLDERS.some((folder) => line.includes(folder))).join('\n');
}

/** Whether Python drives this library: jsii's runtime names itself in JSII_AGENT (`Python/3.12.1`). */
export const pythonDrives = (): boolean => /^Python\//.test(process.env.JSII_AGENT ?? '');

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Props as the reader writes them: `server_id` when Python drives the library, `serverId` from
 * TypeScript and JavaScript. A list (`enabled, rulesets`) keeps its separators.
 */
export function inReaderWords(props: string): string {
  return pythonDrives() ? snakeCase(props) : props;
}

/**
 * A message in a Python user's words: each camelCase name (a prop, a method) in its snake_case
 * form. Quoted text is a value the user gave, and stays as it is.
 */
export function inPythonWords(message: string): string {
  return message.split(/("(?:[^"\\]|\\.)*")/).map((part, i) => (i % 2 === 1 ? part : part.replace(/\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g, snakeCase))).join('');
}

/**
 * An unresolved value of any kind: a token string, number, list, number list (one encoded number,
 * e.g. an iterator's `getNumberList`) or map, or a resolvable passed where a string goes (an
 * iterator's `value` from Python).
 */
const isToken = (value: unknown) => value !== undefined && value !== null && (Tokenization.isResolvable(value) || Token.isUnresolved(value));

export function checkServerId(scope: IConstruct, serverId: string, kind?: 'vps' | 'ded'): void {
  if (isToken(serverId)) return;
  if (!SERVER_ID_PATTERN.test(serverId)) {
    throw new ValidationError(scope, 'serverId', `"${serverId}" is not a server id: expected vps_<segment>_<number> or ded_<uuid> (spec 2.1), as listed by GET /servers${didYouMeanServerId(serverId)}`);
  }
  if (kind && !serverId.startsWith(`${kind}_`)) {
    const what = kind === 'vps' ? 'a VPS (vps_…): the firewall exists only for virtual servers' : 'a dedicated server (ded_…): IP settings exist only for dedicated servers';
    throw new ValidationError(scope, 'serverId', `"${serverId}" must be ${what}`);
  }
}

export function checkIpv4(scope: IConstruct, ip: string): void {
  if (!isToken(ip) && !IPV4_PATTERN.test(ip)) {
    throw new ValidationError(scope, 'ip', `"${ip}" is not an IPv4 address`);
  }
}

export function checkRdns(scope: IConstruct, name: string | undefined): void {
  if (name !== undefined && !isToken(name) && !RDNS_PATTERN.test(name)) {
    throw new ValidationError(scope, 'rdns', `${quotedShort(name)} is not a reverse DNS name: it must be one word without spaces or control characters (the API judges the rest)`);
  }
  checkFitsOneRequest(scope, 'rdns', name);
}

/** A setting the API takes in one request of at most 10 KB (spec section 8), quoted short. */
export function checkFitsOneRequest(scope: IConstruct, prop: string, value: string | undefined): void {
  if (value === undefined || isToken(value)) return;
  const problem = settingTooLarge(prop, value);
  if (problem) throw new ValidationError(scope, prop, `${quotedShort(value)} ${problem}`);
}

export function checkRulesetIds(scope: IConstruct, ids: readonly number[] | undefined): void {
  if (ids === undefined || isToken(ids)) return;
  if (!Array.isArray(ids)) {
    throw new ValidationError(scope, 'rulesets', `is ${describeValue(ids)}, not a list: write the ids as a list, e.g. [1, 2]`);
  }
  for (const id of ids as readonly unknown[]) {
    if (isToken(id)) continue;
    if (typeof id === 'string') {
      throw new ValidationError(scope, 'rulesets', `contains the string ${JSON.stringify(id)}; rulesets takes ids (numbers); rule sets by name go in ${inReaderWords('rulesetNames')}`);
    }
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) {
      throw new ValidationError(scope, 'rulesets', `contains ${describeValue(id)}; rule set ids are non-negative integers (see GET /firewall/rulesets)`);
    }
  }
}

/** A value as a message shows it: strings quoted, so "1,2" never reads as a list. */
const describeValue = (value: unknown) => (typeof value === 'string' ? `the string ${JSON.stringify(value)}` : String(value));

export function checkRulesetNames(scope: IConstruct, names: readonly string[] | undefined): void {
  for (const name of names ?? []) {
    if (!isToken(name) && name.length === 0) {
      throw new ValidationError(scope, 'rulesetNames', 'contains an empty name; use the names listed by GET /firewall/rulesets');
    }
  }
}

/** A timeout: more than 0 seconds, at most a day (MAX_TIMEOUT_SECONDS). */
export function checkTimeoutSeconds(scope: IConstruct, prop: string, value: number | undefined): void {
  if (value === undefined || isToken(value)) return;
  if (!(Number.isFinite(value) && value > 0)) throw new ValidationError(scope, prop, `is ${value}; it must be a positive number of seconds`);
  if (value > MAX_TIMEOUT_SECONDS) throw new ValidationError(scope, prop, `is ${value}; it must be at most ${MAX_TIMEOUT_SECONDS.toLocaleString('en')} seconds (a day)`);
}

export function checkOneOf<T extends string>(scope: IConstruct, prop: string, value: T | undefined, allowed: readonly T[]): void {
  if (value !== undefined && !isToken(value) && !allowed.includes(value)) {
    throw new ValidationError(scope, prop, `is "${value}"; expected one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
  }
}

export function checkSomethingManaged(scope: IConstruct, values: Record<string, unknown>): void {
  if (Object.values(values).every((v) => v === undefined)) {
    throw new ValidationError(scope, Object.keys(values).join(', '), 'are all unset; set at least one, or remove the construct');
  }
}

/**
 * What only the provider can do (import, restore on destroy): a bridge resource never reads the
 * server and cannot tell a removal from a replacement.
 */
export function checkProviderBridge(scope: IConstruct, bridge: Bridge, prop: string, why: string): void {
  if (bridge !== Bridge.PROVIDER) {
    throw new ValidationError(scope, prop, `needs Bridge.PROVIDER (the default), but the HostingApi uses Bridge.${bridge === Bridge.NULL_RESOURCE ? 'NULL_RESOURCE' : 'TERRAFORM_DATA'}: ${why}`);
  }
}

export const IMPORT_NEEDS_PROVIDER = 'a bridge resource never reads the server, so there is nothing to import; use the provider, or keep creating the bridge resource (it reconciles from the actual values)';
export const RESTORE_NEEDS_PROVIDER = 'a bridge resource cannot keep the values it found, nor tell a removal from a replacement; use the provider, or OnDestroy.RETAIN';
export const READ_NEEDS_PROVIDER = 'a bridge resource never reads the server, so there is no value to show; use the provider, or a data source (DataHostingServer and the hosting_* data sources work with every bridge)';
