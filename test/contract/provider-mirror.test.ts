import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseProviderSource, PROVIDER_SOURCE } from '../../src/contract/provider-address';
import { writePackedProviderMirror } from '../../src/contract/provider-mirror';

test('a packed mirror written into a folder that holds other versions keeps them all listed in index.json', () => {
  const root = mkdtempSync(join(tmpdir(), 'packed-'));
  try {
    writePackedProviderMirror(root, Buffer.from('one'), '1.2.0');
    writePackedProviderMirror(root, Buffer.from('two'), '1.3.0');
    writePackedProviderMirror(root, Buffer.from('two'), '1.3.0');
    const dir = join(root, ...PROVIDER_SOURCE.split('/'));
    expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'))).toEqual({ versions: { '1.2.0': {}, '1.3.0': {} } });
    expect(readdirSync(dir).filter((f) => f.endsWith('.json')).sort()).toEqual(['1.2.0.json', '1.3.0.json', 'index.json']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a team\'s own source address: HOST/NAMESPACE/hosting, normalized to lower case; anything else is refused, saying what is expected', () => {
  expect(parseProviderSource('registry.example.com/platform/hosting')).toBe('registry.example.com/platform/hosting');
  expect(parseProviderSource('Registry.Example.com:8443/Platform/hosting')).toBe('registry.example.com:8443/platform/hosting');
  for (const wrong of ['platform/hosting', 'registry.example.com/platform/servers', 'registry.example.com/a/b/hosting', 'localhost/platform/hosting', '']) {
    expect(() => parseProviderSource(wrong)).toThrow(/is not a provider address HOST\/NAMESPACE\/hosting/);
  }
});
