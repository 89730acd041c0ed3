import { takeover, TAKEOVER_SILENCED, warningOfEffect, type TakeoverKind } from '../../src/provider/resources/effects';

const takeoverWarning = (of: TakeoverKind, where: string, changes: string[]) => takeover(of, where, changes).map(warningOfEffect);

/*
 * Terraform renders each distinct warning with its source, at a cost that grows with the square of
 * their number (300 creates taking over: 6 s of Terraform's CPU), and folds warnings that share a
 * summary into one ("and N more similar warnings elsewhere"). Every takeover of a kind shares one
 * summary; each one's detail names its change.
 */
test('takeover warnings of a kind share one summary, and each detail names the resource\'s change', () => {
  const warnings = [1, 2].map((n) => takeoverWarning('firewall', `the firewall of vps_web_${n}`, ['enabled false -> true'])[0]);
  expect(warnings.map((w) => [w.summary, w.detail])).toEqual([1, 2].map((n) => [
    'Creating this resource changes a firewall that exists already',
    `The apply changes the firewall of vps_web_${n}: enabled false -> true. ${TAKEOVER_SILENCED}`,
  ]));
  expect(takeoverWarning('ip settings', 'the settings of 203.0.113.10 on ded_x', ['rdns "a" -> "b"'])[0].summary).toBe('Creating this resource changes IP settings that exist already');
  expect(takeoverWarning('power', 'the power of vps_web_1', ['state "stopped" -> "running"'])[0].summary).toBe('Creating this resource changes the power state of a server');
  // Nothing to take over, nothing said.
  expect(takeoverWarning('firewall', 'the firewall of vps_web_3', [])).toEqual([]);
});
