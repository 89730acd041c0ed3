import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Backend, TerraformStack } from 'cdktf';
import { IsolatedApp } from '../../src/testing/isolated-app';

const backendOf = (app: IsolatedApp, stack: string) =>
  (JSON.parse(readFileSync(join(app.stackDir(stack), 'cdk.tf.json'), 'utf8')) as { terraform: { backend: unknown } }).terraform.backend;

test('every stack keeps its state in its own folder: never the folder the tests run from, nor a backend the stack declares', () => {
  const app = new IsolatedApp();
  new TerraformStack(app, 'web');
  const declared = new TerraformStack(app, 'prod');
  new S3Backend(declared, { bucket: 'team-state', key: 'prod.tfstate', region: 'eu-west-1' });
  app.synth();
  expect(backendOf(app, 'web')).toEqual({ local: { path: join(app.stackDir('web'), 'terraform.tfstate') } });
  expect(backendOf(app, 'prod')).toEqual({ local: { path: join(app.stackDir('prod'), 'terraform.tfstate') } });
  expect(app.outdir.startsWith(tmpdir())).toBe(true);
  // A second synth keeps one backend.
  app.synth();
  expect(backendOf(app, 'prod')).toEqual({ local: { path: join(app.stackDir('prod'), 'terraform.tfstate') } });
  app.remove();
  expect(existsSync(app.outdir)).toBe(false);
});

test('each app has a folder of its own; a folder given as outdir is the caller\'s and stays', () => {
  const given = mkdtempSync(join(tmpdir(), 'isolated-given-'));
  try {
    const [a, b] = [new IsolatedApp(), new IsolatedApp()];
    expect(a.outdir).not.toBe(b.outdir);
    const app = new IsolatedApp({ outdir: given });
    new TerraformStack(app, 'web');
    app.synth();
    app.remove();
    expect(existsSync(join(given, 'stacks', 'web', 'cdk.tf.json'))).toBe(true);
    a.remove();
    b.remove();
  } finally {
    rmSync(given, { recursive: true, force: true });
  }
});
