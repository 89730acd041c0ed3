/*
 * Value formats of the spec, as plain regular expressions: used by the API schemas, the simulator
 * and, at synth time, the constructs (which must not load zod or undici).
 */

/** Section 2.1. Markdown in the spec escapes the backslash; the pattern itself is `\d`. */
export const SERVER_ID_PATTERN = /^(vps_[A-Za-z0-9-]{1,10}_\d{1,10}|ded_[0-9a-f-]{36})$/;

/** Characters typed for a digit by mistake (`vps_web_l`), and the digit meant. */
const DIGIT_LOOKALIKES: Readonly<Record<string, string>> = { 'l': '1', 'I': '1', 'i': '1', '|': '1', 'O': '0', 'o': '0' };

/** A prefix typed with its letters swapped or in another case (`vsp`, `VPS`, `dde`), and the one meant. */
const PREFIX_TYPOS: Readonly<Record<string, 'vps' | 'ded'>> = { vps: 'vps', vsp: 'vps', pvs: 'vps', psv: 'vps', svp: 'vps', spv: 'vps', ded: 'ded', dde: 'ded', edd: 'ded' };

/**
 * A VPS id's prefix and its separators as the spec writes them: a prefix with swapped letters, or
 * followed by `-`, `.` or a space (`vsp-web-1` → `vps_web-1`), and the separator before the number
 * (`vps_web-1` → `vps_web_1`; a segment may hold `-`, so only the last one moves).
 */
function normalizedPrefix(value: string): string {
  const [, prefix, rest] = /^([A-Za-z]{3})[_\-. ](.*)$/.exec(value) ?? [];
  const meant = prefix && PREFIX_TYPOS[prefix.toLowerCase()];
  if (!meant) return value;
  // The number glued to a name of letters (`vps_web2`) gets its separator too.
  return meant === 'vps' ? `vps_${rest.replace(/[-. ](\d{1,10})$/, '_$1').replace(/^([A-Za-z-]{1,10})(\d{1,10})$/, '$1_$2')}` : `ded_${rest}`;
}

/**
 * The server id a value that is none most likely meant, without asking the API: upper case and
 * spaces dropped, a mistyped prefix or separator put right (`vsp_web_1`, `vps-web-1`), and letters
 * that look like digits read as digits in a VPS id's number (`vps_web_l` → `vps_web_1`); undefined
 * when no such reading is a server id.
 */
export function likelyServerId(value: string): string | undefined {
  const lowered = normalizedPrefix(value.trim());
  const [, head, number] = /^(vps_[A-Za-z0-9-]{1,10}_)(.{1,10})$/.exec(lowered) ?? [];
  const candidate = head ? `${head}${[...number].map((c) => DIGIT_LOOKALIKES[c] ?? c).join('')}` : lowered.startsWith('ded_') ? lowered.toLowerCase() : lowered;
  return candidate !== value && SERVER_ID_PATTERN.test(candidate) ? candidate : undefined;
}

/** `; did you mean "vps_web_1"?` for a likely typo, else nothing. */
export const didYouMeanServerId = (value: string): string => {
  const likely = likelyServerId(value);
  return likely ? `; did you mean "${likely}"?` : '';
};

const IPV4_OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
export const IPV4_PATTERN = new RegExp(`^${IPV4_OCTET}(\\.${IPV4_OCTET}){3}$`);

/**
 * What the client checks of an rDNS name: one word of printable characters. The API's accepted
 * format is "not shown", and names it returns hold what DNS host names do not (`mail_relay.…`): the
 * API judges the rest, so a name it returned is never refused here. IP descriptions are not checked
 * at all, for the same reason.
 */
export const RDNS_PATTERN = /^[^\s\u0000-\u001f\u007f]+$/;

/**
 * The rule for the name of the token's environment variable, in one sentence with an example, for
 * messages; the docs give it whole (short upper-case words joined by underscores: a long run of
 * letters and digits reads as a token, not a name).
 */
export const TOKEN_VARIABLE_NAME_RULE = 'short upper-case words joined by underscores, such as HOSTING_API_TOKEN';

/**
 * Whether a value may be the NAME of the token's variable. Stricter than POSIX on purpose: a
 * token pasted here by mistake must be refused, not written into the synth output and the state.
 * Real tokens are mixed-case, lower-case hex or base64url, or carry long random runs; names are
 * short upper-case words.
 */
export function isTokenVariableName(value: string): boolean {
  if (!/^[A-Z_][A-Z0-9_]{0,63}$/.test(value)) return false;
  return value.split('_').every((part) => part.length <= 20 && !(part.length > 12 && /\d/.test(part)));
}

/**
 * Plain http is allowed only to this machine: anywhere else the bearer token would cross a network
 * in clear text. `hostname` as `URL#hostname` gives it (IPv6 in brackets).
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * A URL as messages may show it: scheme, host and path, never a query, a fragment or credentials
 * (any of them could hold a secret pasted in the wrong place).
 */
export function printableUrl(input: string): string {
  return input.trim().split(/[?#]/)[0].replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i, '$1');
}

/** Edits (insert, delete, replace, swap of neighbours) between two texts, ignoring case. */
export function editDistance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (__, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[x.length][y.length];
}

/**
 * The one name `wanted` most likely meant (`webb` → `web`): the nearest by edits, when it is near (a
 * third of the name's length, at least one edit) and no other is as near; else undefined.
 */
export function likelyName(wanted: string, names: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  const scored = [...new Set(names)].map((name) => ({ name, edits: editDistance(wanted, name) })).filter((c) => c.edits <= limit);
  const best = Math.min(...scored.map((c) => c.edits));
  const nearest = scored.filter((c) => c.edits === best);
  return nearest.length === 1 ? nearest[0].name : undefined;
}

/** Section 8: a request body is at most 10 KB. */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024;

/**
 * Why one IP setting cannot be written, if it cannot: the API takes one member per request, so
 * `{"description": …}` must fit the spec's 10 KB body. Other limits on rDNS and the description
 * are not shown in the spec, and the API judges them.
 */
export function settingTooLarge(field: string, value: string): string | undefined {
  const bytes = Buffer.byteLength(JSON.stringify({ [field]: value }));
  return bytes > MAX_REQUEST_BODY_BYTES
    ? `takes ${bytes.toLocaleString('en')} bytes as a request, more than the API's 10 KB request body holds`
    : undefined;
}

/** A value quoted for a message, cut short past 80 characters and saying its length: `"xxxx…" (1,001 characters)`. */
export function quotedShort(value: string, max = 80): string {
  return value.length <= max ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, max))}… (${value.length.toLocaleString('en')} characters)`;
}
