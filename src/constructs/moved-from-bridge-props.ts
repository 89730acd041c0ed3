import type { Bridge } from './bridge';

/** The prop of every resource construct that moves it from a bridge to the provider. */
export interface MovedFromBridgeProps {
  /**
   * The bridge this construct was synthesized with before (`Bridge.TERRAFORM_DATA` or
   * `Bridge.NULL_RESOURCE`), now that its `HostingApi` uses `Bridge.PROVIDER`: writes a `moved`
   * block from the bridge resource to the provider's, so the switch destroys, creates and writes
   * nothing (Terraform 1.8+). A PowerState's reboot records are forgotten (`removed` blocks that
   * destroy nothing). Keep it until every workspace has applied the move; it does nothing after.
   * @default - no move
   */
  readonly movedFromBridge?: Bridge;
}
