import { HostingApiClient } from '../../src/api';
import { takeoverWarning, TAKEOVER_SILENCED } from '../../src/provider/resources/resource';
import { createSession, MORE_TAKEOVERS, TAKEOVERS_IN_FULL } from '../../src/provider/session';

/*
 * Terraform renders each distinct warning with its source, at a cost that grows with the square of
 * their number (300 creates taking over: 6 s of Terraform's CPU), and folds warnings that share a
 * summary into one ("and N more similar warnings elsewhere"). A plan shows its first takeovers each
 * in full; the rest share one summary, and each one's detail still names its change.
 */
test('a plan\'s first takeover warnings each say their change in the summary; the rest share one summary and say it in the detail', () => {
  const client = new HostingApiClient({ baseUrl: 'http://127.0.0.1:9/api/v1', token: 'hsim_unused' });
  const session = createSession({ client, tokenEnvVar: 'HOSTING_API_TOKEN', log: () => undefined, now: () => 0 }, new AbortController().signal).forCall('plan');
  const warnings = Array.from({ length: TAKEOVERS_IN_FULL + 2 }, (_, i) => takeoverWarning(session, `the firewall of vps_web_${i + 1}`, ['enabled false -> true'])[0]);
  for (const [i, warning] of warnings.slice(0, TAKEOVERS_IN_FULL).entries()) {
    expect(warning).toMatchObject({ summary: `Creating this resource changes the firewall of vps_web_${i + 1}, which exists already: enabled false -> true`, detail: TAKEOVER_SILENCED });
  }
  expect(warnings.slice(TAKEOVERS_IN_FULL).map((w) => [w.summary, w.detail])).toEqual([11, 12].map((n) => [
    MORE_TAKEOVERS,
    `Creating this resource changes the firewall of vps_web_${n}, which exists already: enabled false -> true. ${TAKEOVER_SILENCED}`,
  ]));
  // Nothing to take over, nothing said, nothing counted.
  expect(takeoverWarning(session, 'the firewall of vps_web_13', [])).toEqual([]);
});
