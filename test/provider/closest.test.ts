import { closestIds, closestNames, offered } from '../../src/provider/closest';

test('the closest ids are a few edits away, the longest shared start first; at most five', () => {
  const ids = ['ded_0001', 'vps_db_1', 'vps_web_1', 'vps_web_2', 'vps_mail_1', 'vps_a', 'vps_b', 'vps_c'];
  expect(closestIds('vps_web_9', ids)).toEqual(['vps_web_1', 'vps_web_2', 'vps_db_1']);
  expect(closestIds('VPS_DB_1', ids)[0]).toBe('vps_db_1');
  // The account: only the near ones, never the rest of the account.
  expect(closestIds('vps_web_11', ['vps_web_1', 'vps_web_2', 'vps_fail_7', 'vps_new_4', 'vps_shared_5'])).toEqual(['vps_web_1', 'vps_web_2']);
  expect(closestIds('ded_4f1c', ['vps_web_1', 'vps_web_2'])).toEqual([]);
});

test('the closest names: the same ignoring case, then those sharing the start; far ones not at all', () => {
  expect(closestNames('Web-1', ['mail', 'web-2', 'web-1'])).toEqual(['web-1', 'web-2']);
});

test('a hint offers the close ones, or says none is close', () => {
  expect(offered(300, 'servers', ['a', 'b'])).toBe('of its 300 servers, the closest are a, b');
  expect(offered(300, 'servers', ['a'])).toBe('of its 300 servers, the closest is a');
  expect(offered(5, 'servers', [])).toBe('none of its 5 servers is close');
});
