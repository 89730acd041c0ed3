/*
 * Value formats of the spec, as plain regular expressions: used by the API schemas, the simulator
 * and, at synth time, the constructs (which must not load zod or undici).
 */

/** Section 2.1. Markdown in the spec escapes the backslash; the pattern itself is `\d`. */
export const SERVER_ID_PATTERN = /^(vps_[A-Za-z0-9-]{1,10}_\d{1,10}|ded_[0-9a-f-]{36})$/;

const IPV4_OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
export const IPV4_PATTERN = new RegExp(`^${IPV4_OCTET}(\\.${IPV4_OCTET}){3}$`);

/**
 * rDNS names: labels of letters, digits and hyphens, 253 characters at most, an optional final dot.
 * The API's own format is "not shown"; this is what DNS allows.
 */
export const HOST_NAME_PATTERN = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** Longest IP description accepted. The API's limit is "not shown"; this is the careful choice. */
export const MAX_DESCRIPTION_LENGTH = 255;

/** What an environment variable name may look like (POSIX, portable subset). */
export const ENV_VAR_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
