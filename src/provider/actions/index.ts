import type { ProviderAction } from './action';
import { serverPowerAction } from './server-power';
import { serverRebootAction } from './server-reboot';

export { ACTION_BUDGET_SECONDS, type ProviderAction } from './action';

/** Every action the provider serves, by Terraform type name. */
export const ACTIONS: ReadonlyMap<string, ProviderAction> = new Map([serverRebootAction, serverPowerAction].map((a) => [a.typeName, a]));
