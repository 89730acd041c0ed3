import { ComplexList, ComplexObject, type IInterpolatingParent, type IResolvable } from './cdk';

/*
 * Typed accessors for the nested attributes of the data sources (cdktf's complex list and object
 * references, as generated providers have them): `servers.get(0).name`, `metrics.memory.usedBytes`.
 * Each value is a token Terraform resolves after the read.
 */

/** A nested object attribute of a data source, or one element of a list of objects. */
export abstract class NestedObject extends ComplexObject {
  /**
   * @param parent the data source, or the object this one is nested in
   * @param attribute the attribute that holds it
   * @param index its position, for an element of a list
   */
  constructor(parent: IInterpolatingParent, attribute: string, index?: number) {
    super(parent, attribute, false, index);
  }
}

/** A server's resources (section 2.3): each number, or null when unmetered or unknown. */
export class HostingServerResourcesReference extends NestedObject {
  public get cpuCores(): number {
    return this.getNumberAttribute('cpu_cores');
  }

  public get memoryMb(): number {
    return this.getNumberAttribute('memory_mb');
  }

  public get storageGb(): number {
    return this.getNumberAttribute('storage_gb');
  }

  /** The monthly traffic allowance; null when unmetered. */
  public get trafficGb(): number {
    return this.getNumberAttribute('traffic_gb');
  }
}

/** One server as the list endpoint reports it. */
export class HostingServerReference extends NestedObject {
  public get serverId(): string {
    return this.getStringAttribute('id');
  }

  public get name(): string {
    return this.getStringAttribute('name');
  }

  /** `vps`, `vds` or `dedicated`. */
  public get serverType(): string {
    return this.getStringAttribute('type');
  }

  public get hostname(): string {
    return this.getStringAttribute('hostname');
  }

  public get status(): string {
    return this.getStringAttribute('status');
  }

  public get power(): string {
    return this.getStringAttribute('power');
  }

  public get ipv4(): string[] {
    return this.getListAttribute('ipv4');
  }

  public get ipv6(): string[] {
    return this.getListAttribute('ipv6');
  }

  public get os(): string {
    return this.getStringAttribute('os');
  }

  public get resources(): HostingServerResourcesReference {
    return new HostingServerResourcesReference(this, 'resources');
  }

  /** `primary`, or `secondary` for a server shared with the account (read-only for it). */
  public get accessRole(): string {
    return this.getStringAttribute('access_role');
  }

  public get serviceId(): number {
    return this.getNumberAttribute('service_id');
  }

  public get createdAt(): string {
    return this.getStringAttribute('created_at');
  }
}

/** The servers of `DataHostingServers`. */
export class HostingServerList extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string) {
    super(parent, attribute, false);
  }

  public get(index: number): HostingServerReference {
    return new HostingServerReference(this.terraformResource, this.terraformAttribute, index);
  }
}

/** An operation (section 2.4). */
export class HostingOperationReference extends NestedObject {
  public get operationId(): string {
    return this.getStringAttribute('id');
  }

  public get action(): string {
    return this.getStringAttribute('action');
  }

  /** `queued`, `running`, `succeeded`, `failed`, `timed_out` or `outcome_unknown`. */
  public get status(): string {
    return this.getStringAttribute('status');
  }

  public get message(): string {
    return this.getStringAttribute('message');
  }

  public get requestedAt(): string {
    return this.getStringAttribute('requested_at');
  }

  public get completedAt(): string {
    return this.getStringAttribute('completed_at');
  }
}

/** One IP address of a server (section 2.6). */
export class HostingIpAddressReference extends NestedObject {
  public get address(): string {
    return this.getStringAttribute('address');
  }

  /** `ipv4` or `ipv6`. */
  public get version(): string {
    return this.getStringAttribute('version');
  }

  public get primary(): IResolvable {
    return this.getBooleanAttribute('primary');
  }
}

/** The addresses of `DataHostingServerIps`; `get(i)` is one of them. */
export class HostingIpAddressList extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string) {
    super(parent, attribute, false);
  }

  public get(index: number): HostingIpAddressReference {
    return new HostingIpAddressReference(this.terraformResource, this.terraformAttribute, index);
  }
}

/** DDoS protection modes of an address. */
export class HostingProtectionReference extends NestedObject {
  /** `dynamic` or `permanent`. */
  public get layer4(): string {
    return this.getStringAttribute('layer4');
  }

  /** `off`, `permanent` or `only`. */
  public get layer7(): string {
    return this.getStringAttribute('layer7');
  }
}

/** Which settings of an address this token may change. */
export class HostingEditableReference extends NestedObject {
  public get rdns(): IResolvable {
    return this.getBooleanAttribute('rdns');
  }

  public get description(): IResolvable {
    return this.getBooleanAttribute('description');
  }

  public get protection(): IResolvable {
    return this.getBooleanAttribute('protection');
  }
}

/** A firewall rule set. */
export class HostingRulesetReference extends NestedObject {
  public get rulesetId(): number {
    return this.getNumberAttribute('id');
  }

  public get name(): string {
    return this.getStringAttribute('name');
  }
}

/** The rule sets of `DataHostingFirewallRulesets`; `get(i)` is one of them. */
export class HostingRulesetList extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string) {
    super(parent, attribute, false);
  }

  public get(index: number): HostingRulesetReference {
    return new HostingRulesetReference(this.terraformResource, this.terraformAttribute, index);
  }
}

/** Memory or one mount point: bytes, and the share used. */
export class HostingUsageReference extends NestedObject {
  /** The mount point (storage only). */
  public get mount(): string {
    return this.getStringAttribute('mount');
  }

  public get totalBytes(): number {
    return this.getNumberAttribute('total_bytes');
  }

  public get usedBytes(): number {
    return this.getNumberAttribute('used_bytes');
  }

  public get usagePercent(): number {
    return this.getNumberAttribute('usage_percent');
  }
}

/** The storage devices of `DataHostingServerMetrics`; `get(i)` is one of them. */
export class HostingStorageList extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string) {
    super(parent, attribute, false);
  }

  public get(index: number): HostingUsageReference {
    return new HostingUsageReference(this.terraformResource, this.terraformAttribute, index);
  }
}

/** Traffic used in the current billing month. */
export class HostingBandwidthReference extends NestedObject {
  public get usedBytes(): number {
    return this.getNumberAttribute('used_bytes');
  }

  public get limitBytes(): number {
    return this.getNumberAttribute('limit_bytes');
  }
}

/** Transfer volume over a traffic window. */
export class HostingTrafficTotalsReference extends NestedObject {
  public get incomingGb(): number {
    return this.getNumberAttribute('incoming_gb');
  }

  public get outgoingGb(): number {
    return this.getNumberAttribute('outgoing_gb');
  }
}

/** One port-rate sample. */
export class HostingRateReference extends NestedObject {
  public get time(): string {
    return this.getStringAttribute('time');
  }

  public get mbps(): number {
    return this.getNumberAttribute('mbps');
  }
}

/** The port rates of one interface of `DataHostingServerTraffic`; `get(i)` is one of them. */
export class HostingRateList extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string) {
    super(parent, attribute, false);
  }

  public get(index: number): HostingRateReference {
    return new HostingRateReference(this.terraformResource, this.terraformAttribute, index);
  }
}

/** One interface's incoming and outgoing rates. */
export class HostingInterfaceReference extends NestedObject {
  public get incoming(): HostingRateList {
    return new HostingRateList(this, 'incoming');
  }

  public get outgoing(): HostingRateList {
    return new HostingRateList(this, 'outgoing');
  }
}

/** The interfaces of `DataHostingServerTraffic` (dedicated servers); `get(i)` is one of them. */
export class HostingInterfaceList extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string) {
    super(parent, attribute, false);
  }

  public get(index: number): HostingInterfaceReference {
    return new HostingInterfaceReference(this.terraformResource, this.terraformAttribute, index);
  }
}

/** Transfer in one billing month. */
export class HostingMonthReference extends NestedObject {
  public get start(): string {
    return this.getStringAttribute('start');
  }

  public get end(): string {
    return this.getStringAttribute('end');
  }

  public get rxBytes(): number {
    return this.getNumberAttribute('rx_bytes');
  }

  public get txBytes(): number {
    return this.getNumberAttribute('tx_bytes');
  }

  public get totalBytes(): number {
    return this.getNumberAttribute('total_bytes');
  }

  /** The month's allowance; null when unmetered. */
  public get limitGb(): number {
    return this.getNumberAttribute('limit_gb');
  }
}

/** The billing months of `DataHostingServerTraffic` (VPS); `get(i)` is one of them. */
export class HostingMonthList extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string) {
    super(parent, attribute, false);
  }

  public get(index: number): HostingMonthReference {
    return new HostingMonthReference(this.terraformResource, this.terraformAttribute, index);
  }
}

/** One DDoS incident (section 2.9). */
export class HostingIncidentReference extends NestedObject {
  public get incidentId(): string {
    return this.getStringAttribute('id');
  }

  public get startedAt(): string {
    return this.getStringAttribute('started_at');
  }

  public get endedAt(): string {
    return this.getStringAttribute('ended_at');
  }

  public get durationSeconds(): number {
    return this.getNumberAttribute('duration_seconds');
  }

  /** The peak attack rate, a number with a unit, e.g. `18.4 Gbps`. */
  public get peak(): string {
    return this.getStringAttribute('peak');
  }

  public get attackTypes(): string[] {
    return this.getListAttribute('attack_types');
  }
}

/** The recent incidents of `DataHostingDdos`; `get(i)` is one of them. */
export class HostingIncidentList extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string) {
    super(parent, attribute, false);
  }

  public get(index: number): HostingIncidentReference {
    return new HostingIncidentReference(this.terraformResource, this.terraformAttribute, index);
  }
}

/** One DDoS filter rule (section 2.10). */
export class HostingDdosRuleReference extends NestedObject {
  public get protocol(): string {
    return this.getStringAttribute('protocol');
  }

  public get port(): number {
    return this.getNumberAttribute('port');
  }

  public get state(): string {
    return this.getStringAttribute('state');
  }
}

/** The filter rules of `DataHostingDdosRules`; `get(i)` is one of them. */
export class HostingDdosRuleList extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string) {
    super(parent, attribute, false);
  }

  public get(index: number): HostingDdosRuleReference {
    return new HostingDdosRuleReference(this.terraformResource, this.terraformAttribute, index);
  }
}
