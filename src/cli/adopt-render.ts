import { commentLine, hclString, quotedString } from './code-literals';
import type { CdkFlavour } from './this-package';
import type { Firewall, IpSettings, Server } from '../api/schemas';
import { PROVIDER_SOURCE } from '../contract/provider-address';

/*
 * `adopt`, the pure part: what an account holds becomes one program that manages it as it is,
 * every resource marked for import, in HCL, TypeScript or Python. Same input, same text.
 */

export type AdoptLanguage = 'hcl' | 'typescript' | 'python';

/** What was read of the account: the list, and per primary server what can be managed. */
export interface AccountSnapshot {
  readonly servers: readonly Server[];
  readonly firewalls: ReadonlyMap<string, Firewall>;
  /** Settings per dedicated server, by address. */
  readonly addresses: ReadonlyMap<string, readonly IpSettings[]>;
  /** Servers whose settings could not be read, with why. */
  readonly readFailures: ReadonlyMap<string, string>;
}

export type AdoptedResource =
  | { readonly kind: 'firewall'; readonly name: string; readonly server: Server; readonly firewall: Firewall }
  | { readonly kind: 'ip_settings'; readonly name: string; readonly server: Server; readonly settings: IpSettings }
  | { readonly kind: 'power_state'; readonly name: string; readonly server: Server; readonly power: 'running' | 'stopped' };

export interface Adoption {
  readonly resources: readonly AdoptedResource[];
  /** Servers shared with the account (read-only for it), and servers whose power is unknown: listed, not managed. */
  readonly notManaged: readonly string[];
  /** Servers left out because a read failed: adopt them by running `adopt` again. */
  readonly skipped: readonly string[];
}

/** Lower-case letters, digits and hyphens from a server's name; a letter first. */
function slug(text: string): string {
  const cleaned = text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(cleaned) ? cleaned : `s_${cleaned || 'server'}`;
}

/** Servers in the order of their ids: stable from run to run, unlike the API's list order. */
export const byServerId = (servers: readonly Server[]): Server[] => [...servers].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** A server as comments name it: its id and its name, quoted. */
const named = (server: Server) => `${server.id} (${quotedString(server.name)})`;

/**
 * Every setting the account lets this token manage, named after its server, in the order of the
 * server ids (not the list's, which may change between runs). A server that is not `active` keeps
 * its power unmanaged: `provisioning` or `building` is no state to pin it to.
 */
export function adoptionOf(account: AccountSnapshot): Adoption {
  const taken = new Set<string>();
  const unique = (base: string) => {
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return name;
  };
  const resources: AdoptedResource[] = [];
  const notManaged: string[] = [];
  const skipped: string[] = [];
  for (const server of byServerId(account.servers)) {
    if (server.accessRole === 'secondary') {
      notManaged.push(`${named(server)}: shared with this account, read-only for it`);
      continue;
    }
    const failure = account.readFailures.get(server.id);
    if (failure !== undefined) {
      skipped.push(`${named(server)}: ${failure}`);
      continue;
    }
    const base = slug(server.name);
    const firewall = account.firewalls.get(server.id);
    if (firewall) resources.push({ kind: 'firewall', name: unique(`${base}_firewall`), server, firewall });
    for (const settings of account.addresses.get(server.id) ?? []) {
      if (settings.rdns === null && settings.description === null && settings.protection === null) {
        notManaged.push(`${server.id} ${settings.address}: no rDNS, description or protection set, so nothing to adopt`);
        continue;
      }
      resources.push({ kind: 'ip_settings', name: unique(`${base}_ip_${settings.address.replace(/[^0-9a-z]+/gi, '_')}`), server, settings });
    }
    if (server.status !== 'active') notManaged.push(`${named(server)}: its status is ${server.status}, so its power is not adopted`);
    else if (server.power === 'unknown') notManaged.push(`${named(server)}: its power state is unknown, so it is not adopted`);
    else resources.push({ kind: 'power_state', name: unique(`${base}_power`), server, power: server.power });
  }
  return { resources, notManaged, skipped };
}

/** The attributes of a resource as Terraform names them, only those with a value. */
function attributesOf(resource: AdoptedResource): Array<[string, unknown]> {
  const { server } = resource;
  switch (resource.kind) {
    case 'firewall':
      return [['server_id', server.id], ['enabled', resource.firewall.enabled], ['rulesets', [...resource.firewall.rulesets].sort((a, b) => a - b)]];
    case 'ip_settings': {
      const { address, rdns, description, protection } = resource.settings;
      return [['server_id', server.id], ['ip', address], ['rdns', rdns], ['description', description], ['protection', protection]]
        .filter(([, value]) => value !== null) as Array<[string, unknown]>;
    }
    case 'power_state':
      return [['server_id', server.id], ['state', resource.power]];
  }
}

const TYPE_OF: Record<AdoptedResource['kind'], string> = { firewall: 'hosting_server_firewall', ip_settings: 'hosting_ip_settings', power_state: 'hosting_power_state' };
const importId = (r: AdoptedResource) => (r.kind === 'ip_settings' ? `${r.server.id}/${r.settings.address}` : r.server.id);
const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export interface RenderOptions {
  /** Where the API is, only when asked (`--base-url`): otherwise the provider reads HOSTING_API_URL. Never the token. */
  readonly baseUrl?: string;
  /** HCL: the provider's source address in `required_providers`. @default PROVIDER_SOURCE, the mirrors' address */
  readonly source?: string;
  /** HCL: the version constraint in `required_providers`, e.g. `~> 1.4`; none when undefined. */
  readonly version?: string;
  /** The NAME of the token's variable, when not the default. */
  readonly tokenEnvVar?: string;
  /**
   * The CDK a program imports, with this library's flavour for it (`cdktn` and
   * `cdktn-server-hosting` for CDK Terrain; Python imports the same with underscores).
   * @default 'cdktf'
   */
  readonly cdk?: CdkFlavour;
}

export function render(language: AdoptLanguage, adoption: Adoption, options: RenderOptions): string {
  switch (language) {
    case 'hcl':
      return renderHcl(adoption, options);
    case 'typescript':
      return renderTypeScript(adoption, options);
    case 'python':
      return renderPython(adoption, options);
  }
}

const packagesOf = ({ cdk = 'cdktf' }: RenderOptions) => ({ cdk, library: `${cdk}-server-hosting` });

/** The comment lines a program starts with; text from the API in them is escaped to one line each. */
const header = (adoption: Adoption, options: RenderOptions, comment: string) => [
  `Written by \`${packagesOf(options).library} adopt\`: the settings of the account as they are, each marked for import.`,
  'The first plan shows only imports. The token comes from the environment, never from this file.',
  ...(adoption.notManaged.length ? ['Not managed:', ...adoption.notManaged.map((line) => `  ${line}`)] : []),
  ...(adoption.skipped.length ? ['NOT ADOPTED, a read failed (run adopt again to include them):', ...adoption.skipped.map((line) => `  ${line}`)] : []),
].map((line) => `${comment} ${commentLine(line)}`);

function hclValue(value: unknown, indent: string): string {
  if (Array.isArray(value)) return `[${value.map((v) => hclValue(v, indent)).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    const width = Math.max(...entries.map(([k]) => k.length));
    return `{\n${entries.map(([k, v]) => `${indent}  ${k.padEnd(width)} = ${hclValue(v, `${indent}  `)}`).join('\n')}\n${indent}}`;
  }
  return typeof value === 'string' ? hclString(value) : JSON.stringify(value);
}

/**
 * Attributes as `terraform fmt` writes them: the `=` of consecutive one-line attributes aligned; an
 * attribute with a multi-line value stands alone and ends the group.
 */
function hclAttributes(attrs: ReadonlyArray<[string, unknown]>): string {
  const lines = attrs.map(([k, v]) => ({ key: k, value: hclValue(v, '  ') }));
  const out: string[] = [];
  for (let start = 0; start < lines.length;) {
    if (lines[start].value.includes('\n')) {
      out.push(`  ${lines[start].key} = ${lines[start].value}`);
      start += 1;
      continue;
    }
    let end = start;
    while (end < lines.length && !lines[end].value.includes('\n')) end += 1;
    const width = Math.max(...lines.slice(start, end).map((l) => l.key.length));
    out.push(...lines.slice(start, end).map((l) => `  ${l.key.padEnd(width)} = ${l.value}`));
    start = end;
  }
  return out.join('\n');
}

function renderHcl(adoption: Adoption, options: RenderOptions): string {
  const providerLines = [
    ...(options.baseUrl ? [['base_url', options.baseUrl]] : []),
    ...(options.tokenEnvVar ? [['token_env_var', options.tokenEnvVar]] : []),
  ];
  const width = Math.max(0, ...providerLines.map(([k]) => k.length));
  const blocks = adoption.resources.flatMap((r) => [
    `import {\n  to = ${TYPE_OF[r.kind]}.${r.name}\n  id = ${hclString(importId(r))}\n}`,
    `resource "${TYPE_OF[r.kind]}" "${r.name}" {\n${hclAttributes(attributesOf(r))}\n}`,
  ]);
  return [
    ...header(adoption, options, '#'),
    '',
    requiredProviders(options),
    '',
    `provider "hosting" {${providerLines.length ? `\n${providerLines.map(([k, v]) => `  ${k.padEnd(width)} = ${hclString(v)}`).join('\n')}\n` : ''}}`,
    ...blocks.flatMap((b) => ['', b]),
    '',
  ].join('\n');
}

/** The `terraform` block: where the provider comes from, and which versions, as a team commits it. */
function requiredProviders({ source = PROVIDER_SOURCE, version }: RenderOptions): string {
  const lines = version === undefined ? [`source = ${hclString(source)}`] : [`source  = ${hclString(source)}`, `version = ${hclString(version)}`];
  return `terraform {\n  required_providers {\n    hosting = {\n${lines.map((l) => `      ${l}`).join('\n')}\n    }\n  }\n}`;
}

const CONSTRUCT_OF: Record<AdoptedResource['kind'], string> = { firewall: 'ServerFirewall', ip_settings: 'IpSettings', power_state: 'PowerState' };
const ENUMS: Record<string, Record<string, string>> = {
  state: { running: 'PowerStateValue.RUNNING', stopped: 'PowerStateValue.STOPPED' },
  layer4: { dynamic: 'Layer4Protection.DYNAMIC', permanent: 'Layer4Protection.PERMANENT' },
  layer7: { off: 'Layer7Protection.OFF', permanent: 'Layer7Protection.PERMANENT', only: 'Layer7Protection.ONLY' },
};

/** A prop's value in TypeScript or Python: enums by name, structs as literals (Python: IpProtection). */
function propValue(name: string, value: unknown, language: 'typescript' | 'python'): string {
  if (ENUMS[name]) return ENUMS[name][String(value)];
  if (name === 'protection') {
    const p = value as { layer4: string; layer7: string };
    return language === 'python'
      ? `IpProtection(layer4=${ENUMS.layer4[p.layer4]}, layer7=${ENUMS.layer7[p.layer7]})`
      : `{ layer4: ${ENUMS.layer4[p.layer4]}, layer7: ${ENUMS.layer7[p.layer7]} }`;
  }
  if (language === 'python' && typeof value === 'boolean') return value ? 'True' : 'False';
  if (Array.isArray(value)) return `[${value.map((v) => propValue('', v, language)).join(', ')}]`;
  return typeof value === 'string' ? quotedString(value) : JSON.stringify(value);
}

/** The names a program imports: only those it uses, sorted. */
function importsOf(adoption: Adoption, language: 'typescript' | 'python'): string[] {
  const names = new Set(['HostingApi', ...adoption.resources.map((r) => CONSTRUCT_OF[r.kind])]);
  for (const r of adoption.resources) {
    if (r.kind === 'power_state') names.add('PowerStateValue');
    if (r.kind === 'ip_settings' && r.settings.protection) {
      names.add('Layer4Protection').add('Layer7Protection');
      if (language === 'python') names.add('IpProtection');
    }
  }
  return [...names].sort();
}

function apiProps(options: RenderOptions, language: 'typescript' | 'python'): string {
  const props: Array<[string, string]> = [
    ...(options.baseUrl ? [['baseUrl', options.baseUrl] as [string, string]] : []),
    ...(options.tokenEnvVar ? [['tokenEnvVar', options.tokenEnvVar] as [string, string]] : []),
  ];
  if (props.length === 0) return '';
  return language === 'python'
    ? props.map(([k, v]) => `, ${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}=${quotedString(v)}`).join('')
    : `, { ${props.map(([k, v]) => `${k}: ${propValue('', v, 'typescript')}`).join(', ')} }`;
}

function renderTypeScript(adoption: Adoption, options: RenderOptions): string {
  const packages = packagesOf(options);
  const body = adoption.resources.map((r) => {
    const props = attributesOf(r).map(([k, v]) => `      ${camel(k)}: ${propValue(k, v, 'typescript')},`);
    return [`    new ${CONSTRUCT_OF[r.kind]}(this, ${quotedString(r.name)}, {`, '      api,', ...props, '    }).importExisting();'].join('\n');
  });
  return [
    ...header(adoption, options, '//'),
    `import { App, TerraformStack } from '${packages.cdk}';`,
    "import type { Construct } from 'constructs';",
    `import {\n${importsOf(adoption, 'typescript').map((n) => `  ${n},`).join('\n')}\n} from '${packages.library}';`,
    '',
    'class AdoptedStack extends TerraformStack {',
    '  constructor(scope: Construct, id: string) {',
    '    super(scope, id);',
    `    const api = new HostingApi(this, 'hosting'${apiProps(options, 'typescript')});`,
    ...body.flatMap((b) => ['', b]),
    '  }',
    '}',
    '',
    'const app = new App();',
    "new AdoptedStack(app, 'adopted');",
    'app.synth();',
    '',
  ].join('\n');
}

function renderPython(adoption: Adoption, options: RenderOptions): string {
  const packages = packagesOf(options);
  const body = adoption.resources.map((r) => {
    const props = attributesOf(r).map(([k, v]) => `            ${k}=${propValue(k, v, 'python')},`);
    return [`        ${CONSTRUCT_OF[r.kind]}(`, '            self,', `            ${quotedString(r.name)},`, '            api=api,', ...props, '        ).import_existing()'].join('\n');
  });
  return [
    ...header(adoption, options, '#'),
    `from ${packages.cdk} import App, TerraformStack`,
    'from constructs import Construct',
    '',
    `from ${packages.library.replace(/-/g, '_')} import (\n${importsOf(adoption, 'python').map((n) => `    ${n},`).join('\n')}\n)`,
    '',
    '',
    'class AdoptedStack(TerraformStack):',
    '    def __init__(self, scope: Construct, id: str) -> None:',
    '        super().__init__(scope, id)',
    `        api = HostingApi(self, "hosting"${apiProps(options, 'python')})`,
    ...body.flatMap((b) => ['', b]),
    '',
    '',
    'app = App()',
    'AdoptedStack(app, "adopted")',
    'app.synth()',
    '',
  ].join('\n');
}
