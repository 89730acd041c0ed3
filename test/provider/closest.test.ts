import { closestIds, closestNames, offered } from '../../src/provider/closest';

test('the closest ids share the longest start with the one asked for; at most five', () => {
  const ids = ['ded_0001', 'vps_db_1', 'vps_web_1', 'vps_web_2', 'vps_mail_1', 'vps_a', 'vps_b', 'vps_c'];
  expect(closestIds('vps_web_9', ids)).toEqual(['vps_web_1', 'vps_web_2', 'vps_a', 'vps_b', 'vps_c']);
  expect(closestIds('VPS_DB_1', ids)[0]).toBe('vps_db_1');
});

test('the closest names: the same ignoring case, then those sharing the start', () => {
  expect(closestNames('Web-1', ['mail', 'web-2', 'web-1'])).toEqual(['web-1', 'web-2', 'mail']);
});

test('a hint offers all of a few, or the closest of many', () => {
  expect(offered(2, 'servers', ['a', 'b'])).toBe('it has a, b');
  expect(offered(300, 'servers', ['a', 'b'])).toBe('of its 300 servers, the closest are a, b');
});
