import { spawnSync } from 'node:child_process';
import { shellWord } from '../../src/cli/this-package';

// Issue 60 §2: the lines `simulator start` prints from the standalone executable name it by its path, as a shell runs it.
test('a path is one shell word: as it is when plain, else single-quoted so the shell reads it back exactly', () => {
  expect(shellWord('/opt/tools/terraform-provider-hosting_v1.8.0')).toBe('/opt/tools/terraform-provider-hosting_v1.8.0');
  for (const path of ['/home/a user/bin/p', '/tmp/it\'s here/p', '/tmp/$(rm -rf x)/p']) {
    const echoed = spawnSync('sh', ['-c', `printf %s ${shellWord(path)}`], { encoding: 'utf8' }).stdout;
    expect(echoed).toBe(path);
  }
});
