import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import * as cdktf from 'cdktf';
import ts from 'typescript';
import * as yaml from 'yaml';
import * as library from '../../src';
import { parseAdoptArgs } from '../../src/cli/adopt-command';
import { parseProviderArgs, runMirrorCommand } from '../../src/cli/provider-command';
import { checkSimulatorArgs } from '../../src/cli/simulator-lifecycle';
import { seedFromAccountFile, startSimulator, type RunningSimulator } from '../../src/simulator';
import { blocksOf, docBlocks, ROOT, shellCommands, type DocBlock } from '../helpers/doc-blocks';
import { tsProgram, writePrograms } from '../helpers/doc-programs';
import { filesBelow } from '../helpers/files';
import { describeWithTerraform, TERRAFORM_RC } from '../helpers/terraform';

/*
 * Docs are code: every block of README.md and docs/ is checked in its language (TypeScript
 * type-checks against the library and synthesizes; HCL is formatted, validates and plans against the
 * simulator; shell parses and names only flags its commands take; JSON account files load). Python
 * blocks run in the Python suite, against the built wheel.
 */

const BLOCKS = docBlocks();
const work = mkdtempSync(join(tmpdir(), 'cdktf-server-hosting-docs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const of = (language: DocBlock['language']) => BLOCKS.filter((b) => b.language === language);

test('every block is closed, names a language the tests run, and carries only markers they understand', () => {
  expect(BLOCKS.length).toBeGreaterThan(60);
  expect(() => blocksOf('text\n```python\nprint(1)\n\n### Next\n', 'README.md')).toThrow('README.md:2: this code block is never closed');
  expect(() => blocksOf('```\nplain\n```\n', 'x.md')).toThrow('x.md:1: code block language "" is none the docs tests run');
  expect(() => blocksOf('<!-- docs-test: fragmnt -->\n```ts\nx\n```\n', 'x.md')).toThrow('is not a docs-test marker');
  expect(blocksOf('<!-- docs-test: in-stack -->\n\n```ts\nx\n```\n', 'x.md')[0].marker).toEqual({ kind: 'in-stack' });
});

describe('TypeScript blocks', () => {
  const programs = of('ts').map((block) => tsProgram(block, Object.keys(cdktf), Object.keys(library)));
  const root = join(work, 'ts');
  const files = writePrograms(root, programs);

  const source = join(ROOT, 'src', 'index.ts');
  const compilerOptions = (): ts.CompilerOptions => ({
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node', 'jest'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    baseUrl: root,
    paths: { 'cdktf-server-hosting': [source], 'cdktn-server-hosting': [source], 'cdktn': [join(ROOT, 'node_modules', 'cdktf')], '*': [join(ROOT, 'node_modules', '*')] },
  });

  test('type-check, strict, against the library (cdktn blocks against the same source)', () => {
    const program = ts.createProgram(files, compilerOptions());
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const index = files.indexOf(d.file?.fileName ?? '');
      const where = index >= 0 ? `${programs[index].block.where} (as ${programs[index].path}:${d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : d.file?.fileName;
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(errors).toEqual([]);
  }, 120_000);

  test('the README\'s word on enums holds: a choice written as its string is the type error it quotes', () => {
    const quoted = /`(Type '"permanent"' is not assignable to type 'Layer4Protection')`/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1];
    const file = join(root, 'enum-as-string.ts');
    writeFileSync(file, "import { IpProtection, Layer7Protection } from 'cdktf-server-hosting';\nexport const p: IpProtection = { layer4: 'permanent', layer7: Layer7Protection.ONLY };\n");
    const errors = ts.getPreEmitDiagnostics(ts.createProgram([file], compilerOptions())).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(quoted).toBeDefined();
    expect(errors).toEqual([`${quoted}.`]);
  }, 120_000);

  test('whole programs synthesize their stacks', () => {
    const runnable = programs.filter((p) => p.synthesizes);
    expect(runnable.length).toBeGreaterThan(0);
    for (const program of runnable) {
      const dir = join(work, 'synth', program.path.replace(/\.ts$/, ''));
      mkdirSync(dir, { recursive: true });
      const resolved = program.text
        .replace(/from '(cdktf|cdktn)-server-hosting'/g, `from ${JSON.stringify(join(ROOT, 'src'))}`)
        .replace(/from '(cdktf|cdktn)'/g, `from ${JSON.stringify(join(ROOT, 'node_modules', 'cdktf'))}`)
        .replace(/from 'constructs'/g, `from ${JSON.stringify(join(ROOT, 'node_modules', 'constructs'))}`);
      writeFileSync(join(dir, 'main.ts'), resolved);
      const run = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), 'main.ts'], {
        cwd: dir, encoding: 'utf8', env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'test', 'tsconfig.json'), CDKTF_OUTDIR: join(dir, 'out') },
      });
      expect({ where: program.block.where, status: run.status, stderr: run.stderr }).toEqual({ where: program.block.where, status: 0, stderr: '' });
      const stacks = readdirSync(join(dir, 'out', 'stacks'));
      for (const stack of stacks) expect(JSON.parse(readFileSync(join(dir, 'out', 'stacks', stack, 'cdk.tf.json'), 'utf8')).resource).toBeDefined();
    }
  }, 120_000);
});

test('JSON account files load in the simulator; JavaScript and YAML parse', () => {
  for (const block of of('json')) expect(() => seedFromAccountFile(JSON.parse(block.code))).not.toThrow();
  for (const block of of('js')) expect(() => new Script(block.code, { filename: block.where })).not.toThrow();
  for (const block of of('yaml')) expect(() => yaml.parse(block.code)).not.toThrow();
});

/** Runs `command`; resolves to its exit status and everything it printed. */
const run = (command: string, args: string[], cwd: string, env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? work, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });

/** Actions and list resources: Terraform 1.14+. */
const needsNewerTerraform = (block: DocBlock) => /^(action|list) "|^\s*action_trigger \{/m.test(block.code);

/** Terraform's error lines and where they point, without the warning every run prints about the override. */
const errorsIn = (output: string) =>
  output.split('\n\n').filter((paragraph, i, all) => /^(Error: |  on )/.test(paragraph) || /^Error: /.test(all[i - 1] ?? '')).map((p) => p.trim());

/** Two at a time, as these machines have two cores; results in order. */
async function twoAtATime<T, R>(items: readonly T[], each: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await each(items[index]);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

describeWithTerraform('HCL blocks', () => {
  const root = join(work, 'hcl');
  let sim: RunningSimulator;
  let env: Record<string, string>;
  const blocks = of('terraform');
  const folderOf = (block: DocBlock) => join(root, (block.marker.kind === 'file' ? block.where.split(':')[0] : block.where).replace(/[^\w-]/g, '_'));
  const validated = (b: DocBlock) => (b.marker.kind === 'whole' && !needsNewerTerraform(b)) || b.marker.kind === 'file';
  const wholeFolders = () => [...new Set(blocks.filter(validated).map(folderOf))];

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, timedTransitions: false });
    // Whatever source a block names, Terraform runs this build of the provider: no init for it (a module's init installs it from the mirror).
    const mirror = join(work, 'mirror');
    runMirrorCommand([mirror], () => undefined, () => undefined);
    const platform = `${process.platform}_${process.arch === 'x64' ? 'amd64' : process.arch}`;
    const versions = join(mirror, 'local.cdktf-server-hosting.invalid', 'cdktf-server-hosting', 'hosting');
    const provider = join(versions, readdirSync(versions)[0], platform);
    const sources = ['registry.example.com/platform/hosting', 'local.cdktf-server-hosting.invalid/cdktf-server-hosting/hosting', 'hashicorp/hosting'];
    const rc = join(work, 'docs.tfrc');
    writeFileSync(rc, `${readFileSync(TERRAFORM_RC, 'utf8')}\nprovider_installation {\n  dev_overrides {\n${sources.map((s) => `    "${s}" = "${provider}"`).join('\n')}\n  }\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
    env = { TF_CLI_CONFIG_FILE: rc, HOSTING_API_URL: sim.baseUrl, TF_VAR_hosting_api_url: sim.baseUrl, HOSTING_API_TOKEN: sim.tokens.full };
    for (const block of blocks) {
      const name = block.marker.kind === 'file' ? block.marker.name : needsNewerTerraform(block) ? 'newer.tf.txt' : 'main.tf';
      mkdirSync(join(folderOf(block), ...name.split('/').slice(0, -1)), { recursive: true });
      writeFileSync(join(folderOf(block), name), block.code);
    }
  }, 60_000);
  afterAll(() => sim?.close());

  test('are formatted as terraform fmt writes them (fragments included: fmt parses them)', async () => {
    const fmt = await run('terraform', ['fmt', '-check', '-recursive', '-no-color', root], root, env);
    expect({ code: fmt.code, unformatted: fmt.output.trim().split('\n').filter(Boolean) }).toEqual({ code: 0, unformatted: [] });
    for (const block of blocks.filter(needsNewerTerraform)) {
      const formatted = spawnSync('terraform', ['fmt', '-'], { input: block.code, encoding: 'utf8', env: { ...process.env, ...env } });
      expect({ where: block.where, status: formatted.status, text: formatted.stdout }).toEqual({ where: block.where, status: 0, text: block.code });
    }
  });

  test('blocks for Terraform 1.14+ (actions, list resources) are files of examples/hcl, which the newer-terraform suite runs on 1.15', () => {
    const examples = filesBelow(join(ROOT, 'examples', 'hcl')).map((file) => readFileSync(file, 'utf8').trimEnd());
    const newer = blocks.filter(needsNewerTerraform);
    expect(newer.length).toBeGreaterThan(0);
    const outsideExamples = newer.filter((block) => !examples.includes(block.code.trimEnd())).map((block) => block.where);
    expect(outsideExamples).toEqual([]);
  });

  test('whole configurations validate, then plan against the simulator (the demo account)', async () => {
    const results = await twoAtATime(wholeFolders(), async (dir) => {
      const needsInit = readdirSync(dir).some((name) => !name.endsWith('.tf')) || /\bmodule "/.test(readFileSync(join(dir, 'main.tf'), 'utf8'));
      const init = needsInit ? await run('terraform', ['init', '-input=false', '-no-color'], dir, env) : { code: 0, output: '' };
      const validate = init.code === 0 ? await run('terraform', ['validate', '-no-color'], dir, env) : init;
      const plan = validate.code === 0 ? await run('terraform', ['plan', '-input=false', '-no-color', '-detailed-exitcode', '-lock=false'], dir, env) : validate;
      const ok = plan.code === 0 || plan.code === 2;
      return { dir: dir.slice(root.length + 1), ok, errors: ok ? [] : errorsIn(plan.output) };
    });
    expect(results.filter((r) => !r.ok)).toEqual([]);
  }, 300_000);
});

describe('shell blocks', () => {
  test('the command reader splits commands and words as the shell does', () => {
    expect(shellCommands('A=1 npx cdktf-server-hosting simulator --port 0 # note\ncurl -d \'{"a": 1}\' x && \\\n  terraform plan -input=false 2>&1 | tee out > log &\nsleep 1')).toEqual([
      ['npx', 'cdktf-server-hosting', 'simulator', '--port', '0'],
      ['curl', '-d', '{"a": 1}', 'x'],
      ['terraform', 'plan', '-input=false'],
      ['tee', 'out'],
      ['sleep', '1'],
    ]);
  });

  test('parse as bash', () => {
    for (const block of of('shell')) {
      const check = spawnSync('bash', ['-n'], { input: block.code, encoding: 'utf8' });
      expect({ where: block.where, status: check.status, stderr: check.stderr }).toEqual({ where: block.where, status: 0, stderr: '' });
    }
  });

  test("this package's commands get only the flags it takes (the npm command and the standalone executable alike)", () => {
    const refused: string[] = [];
    let checked = 0;
    for (const block of of('shell')) {
      for (const words of shellCommands(block.code)) {
        const args = ourArguments(words);
        if (!args) continue;
        checked++;
        try {
          // A shell default (`${PORT:-0}`) stands for its value, `$$` for this process's id; other variables are paths, which parsing does not open.
          checkOurCommand(args.map((arg) => arg.replace(/\$\{\w+:-([^}]*)\}/g, '$1').replace(/^\$\$$/, String(process.pid))));
        } catch (err) {
          refused.push(`${block.where}: ${words.join(' ')}: ${(err as Error).message}`);
        }
      }
    }
    expect(refused).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  test('blocks that only call the simulator\'s control surface run against one, every request answered 2xx', async () => {
    // Variable assignments are no commands (shellCommands leaves them out): `json='…'` stays in the script.
    const controlOnly = of('shell').filter((block) => {
      const commands = shellCommands(block.code);
      return commands.length > 0 && commands.every((words) => words[0] === 'curl' && words.some((w) => w.includes('127.0.0.1:8787/__simulator/')));
    });
    expect(controlOnly.length).toBeGreaterThan(0);
    const sim = await startSimulator({ port: 0 });
    try {
      const address = new URL(sim.controlUrl).host;
      for (const block of controlOnly) {
        // The guide's port is the simulator's default; curl -f fails on any 4xx or 5xx.
        const script = `set -e\n${block.code.replace(/127\.0\.0\.1:8787/g, address).replace(/^curl /gm, 'curl -fsS -o /dev/null ')}`;
        const ran = await run('bash', ['-c', script], work, {});
        expect({ where: block.where, code: ran.code, output: ran.output }).toEqual({ where: block.where, code: 0, output: '' });
      }
      expect(sim.state.server('vps_web_1').server.power).toBe('stopped');
      expect(sim.state.server('vps_web_1').firewall?.enabled).toBe(false);
    } finally {
      await sim.close();
    }
  });

  describeWithTerraform('terraform', () => {
    test("terraform commands name subcommands and flags this Terraform has (from each subcommand's -help)", () => {
      const helps = new Map<string, string>();
      const unknown: string[] = [];
      for (const block of of('shell')) {
        for (const words of shellCommands(block.code).filter((w) => w[0] === 'terraform' && w.length > 1)) {
          const sub = ['providers', 'state', 'workspace'].includes(words[1]) && words[2] && !words[2].startsWith('-') ? words.slice(1, 3) : words.slice(1, 2);
          const key = sub.join(' ');
          if (!helps.has(key)) helps.set(key, spawnSync('terraform', [...sub, '-help'], { encoding: 'utf8', env: { ...process.env, CHECKPOINT_DISABLE: '1' } }).stdout);
          const help = helps.get(key)!;
          if (!help.includes(`terraform [global options] ${key}`)) unknown.push(`${block.where}: terraform ${key} is not a terraform command`);
          for (const flag of words.filter((w) => /^-[a-z]/.test(w)).map((w) => w.split('=')[0])) {
            if (!new RegExp(`^\\s+${flag}\\b`, 'm').test(help) && !UNLISTED_FLAGS[key]?.includes(flag)) unknown.push(`${block.where}: terraform ${key} has no ${flag}`);
          }
        }
      }
      expect(unknown).toEqual([]);
      expect(helps.size).toBeGreaterThan(3);
    });
  });
});

/** The arguments given to this package's command-line tool, or undefined when `words` runs something else. */
/**
 * Flags a subcommand takes that its -help does not list: `-json` of plan and apply is Terraform's
 * machine-readable UI (its "Machine-readable UI" documentation), which a GitOps bot reads.
 */
const UNLISTED_FLAGS: Partial<Record<string, readonly string[]>> = { plan: ['-json'], apply: ['-json'] };

function ourArguments(words: string[]): string[] | undefined {
  if (words[0] === 'npx' && /^(cdktf|cdktn)-server-hosting$/.test(words[1] ?? '')) return words.slice(2);
  if (/(^|\/)(cdktf|cdktn)-server-hosting$|(^|\/)terraform-provider-hosting(_v[\w.…<>-]+)?$/.test(words[0])) return words.slice(1);
  return undefined;
}

/** Parses a command line as the tool does, without running it; throws its refusal. */
function checkOurCommand([command, ...args]: string[]): void {
  if (['--version', 'version', '--help', 'help'].includes(command) || args.includes('--help')) return;
  if (command === 'simulator') checkSimulatorArgs(args);
  else if (command === 'adopt') parseAdoptArgs(args);
  else if (command === 'provider' && ['mirror', 'registry'].includes(args[0])) parseProviderArgs(args.slice(1));
  else throw new Error(`"${command}${command === 'provider' ? ` ${args[0]}` : ''}" is not a command of the tool`);
}
