import { main } from '../../src/cli/main';

describe('the cdktf-server-hosting command', () => {
  const written = { out: '', err: '' };
  beforeEach(() => {
    written.out = '';
    written.err = '';
    jest.spyOn(process.stdout, 'write').mockImplementation((text) => ((written.out += String(text)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation((text) => ((written.err += String(text)), true));
  });
  afterEach(() => jest.restoreAllMocks());

  test.each(['help', '--help', '-h'])('%s prints the usage on stdout and exits 0', async (arg) => {
    expect(await main([arg])).toBe(0);
    expect(written.out).toMatch(/^usage: cdktf-server-hosting simulator \[--port N\] \[--host ADDRESS\]\n {7}cdktf-server-hosting provider mirror <directory> \[--packed\]\n {7}cdktf-server-hosting adopt --language typescript\|python\|hcl \[--out FILE\] \[--token-env-var NAME\]\n$/);
    expect(written.err).toBe('');
  });

  test('an unknown command is a usage error on stderr, exit 2', async () => {
    expect(await main(['deploy'])).toBe(2);
    expect(written.err).toMatch(/^unknown command "deploy"\nusage: /);
  });
});
