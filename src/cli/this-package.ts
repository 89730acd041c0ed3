import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The flavour this package was built as, from its own name: `cdktf-server-hosting`, or
 * `cdktn-server-hosting` for CDK Terrain. Its commands and the programs `adopt` writes use it.
 */
export const THIS_PACKAGE: { readonly name: string; readonly cdk: 'cdktf' | 'cdktn' } = (() => {
  const name = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { name: string }).name;
  return { name, cdk: name.startsWith('cdktn-') ? 'cdktn' : 'cdktf' };
})();
