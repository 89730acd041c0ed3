import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CPU_PROFILE_VARIABLE, startCpuProfile } from '../../src/provider/plugin/cpu-profile';

test('with HOSTING_PROVIDER_CPU_PROFILE_DIR the provider writes a CPU profile of itself and its whole CPU use at shutdown; without it, nothing starts', async () => {
  expect(startCpuProfile({})).toBeUndefined();
  const dir = mkdtempSync(join(tmpdir(), 'cpu-profile-'));
  try {
    const write = startCpuProfile({ [CPU_PROFILE_VARIABLE]: dir })!;
    let busy = 0;
    for (let i = 0; i < 1e6; i++) busy += Math.sqrt(i);
    expect(busy).toBeGreaterThan(0);
    await new Promise<void>((resolve) => write(resolve));
    const file = join(dir, `provider-${process.pid}.cpuprofile`);
    expect(existsSync(file)).toBe(true);
    const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: unknown[]; samples: number[] };
    expect(profile.nodes.length).toBeGreaterThan(0);
    const usage = JSON.parse(readFileSync(join(dir, `provider-${process.pid}.usage.json`), 'utf8')) as { cpu: { user: number; system: number } };
    expect(usage.cpu.user).toBeGreaterThan(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
