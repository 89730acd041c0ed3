import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// eslint-disable-next-line import/no-extraneous-dependencies -- jsii's own table of Node releases, which its warning prints from
import { NodeRelease } from '@jsii/check-node';

/** The README names both dates of Node 20 that a user meets (its end of life, and the end of jsii's support jsii's warning prints), as jsii has them. */
test('the README\'s Node 20 dates are jsii\'s', () => {
  const release = NodeRelease.ALL_RELEASES.find((r) => r.majorVersion === 20)!;
  const day = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8').replace(/\s+/g, ' ');
  expect(readme).toContain(`Node 20 reached its end of life on ${day(release.endOfLifeDate!)}`);
  expect(readme).toContain(`jsii's own support for it ended six months later, on ${day(release.endOfJsiiSupportDate!)}`);
  expect(readme).toContain(`since ${day(release.endOfJsiiSupportDate!)}`);
});
