import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DocBlock } from './doc-blocks';

/*
 * The TypeScript and Python programs the docs' blocks stand for: a whole block as it is, a
 * fragment inside what it assumes (a stack's constructor with `api`, or a test with `account`),
 * and the blocks named as files of one project side by side. Pure text; the tests compile and run it.
 */

export interface DocProgram {
  readonly block: DocBlock;
  /** Relative to the folder of the doc's programs. */
  readonly path: string;
  readonly text: string;
  /** Synthesizes a cdktf app when run. */
  readonly synthesizes: boolean;
}

const namesUsed = (code: string, exported: readonly string[]) => exported.filter((name) => new RegExp(`\\b${name}\\b`).test(code));
const indent = (code: string, by: string) => code.trimEnd().split('\n').map((line) => (line ? by + line : line)).join('\n');
const slugOf = (block: DocBlock) => block.where.replace(/\.md:/, '-').replace(/[^\w-]/g, '_');

export function tsProgram(block: DocBlock, cdktfNames: readonly string[], libraryNames: readonly string[]): DocProgram {
  const base = { block, synthesizes: block.marker.kind === 'whole' && /\bapp\.synth\(\)/.test(block.code) };
  const marker = block.marker;
  if (marker.kind === 'file') return { ...base, path: join(slugOf({ ...block, where: block.file }), marker.name), text: block.code };
  if (marker.kind === 'in-stack') {
    const cdktf = ['TerraformStack', ...namesUsed(block.code, cdktfNames).filter((n) => n !== 'TerraformStack')];
    const library = ['HostingApi', ...namesUsed(block.code, libraryNames).filter((n) => n !== 'HostingApi')];
    const text = [
      "import { Construct } from 'constructs';",
      `import { ${cdktf.join(', ')} } from 'cdktf';`,
      `import { ${library.join(', ')} } from 'cdktf-server-hosting';`,
      '',
      'export class DocStack extends TerraformStack {',
      '  constructor(scope: Construct, id: string) {',
      '    super(scope, id);',
      "    const api = new HostingApi(this, 'hosting');",
      '    {',
      indent(block.code, '      '),
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    return { ...base, path: `${slugOf(block)}.ts`, text };
  }
  if (marker.kind === 'with-account') {
    const text = `import { testing } from 'cdktf-server-hosting';\n\nexport function docBlock(account: testing.SimulatedAccount): void {\n${indent(block.code, '  ')}\n}\n`;
    return { ...base, path: `${slugOf(block)}.ts`, text };
  }
  return { ...base, path: `${slugOf(block)}.ts`, text: block.code };
}

export function pythonProgram(block: DocBlock): DocProgram {
  const base = { block, synthesizes: block.marker.kind === 'whole' && /\bapp\.synth\(\)/.test(block.code) };
  const marker = block.marker;
  const module = `${slugOf(block).toLowerCase()}.py`;
  if (marker.kind === 'file') return { ...base, path: join(slugOf({ ...block, where: block.file }).toLowerCase(), marker.name), text: block.code };
  if (marker.kind === 'in-stack') {
    const text = [
      'from constructs import Construct',
      'from cdktf import *  # noqa: F403',
      'from cdktf_server_hosting import *  # noqa: F403',
      '',
      '',
      'class DocStack(TerraformStack):',
      '    def __init__(self, scope: Construct, id: str) -> None:',
      '        super().__init__(scope, id)',
      '        api = HostingApi(self, "hosting")',
      indent(block.code, '        '),
      '',
    ].join('\n');
    return { ...base, path: module, text };
  }
  if (marker.kind === 'with-account') {
    const text = `from cdktf_server_hosting import testing\n\n\ndef doc_block(account: testing.SimulatedAccount) -> None:\n${indent(block.code, '    ')}\n`;
    return { ...base, path: module, text };
  }
  return { ...base, path: module, text: block.code };
}

/** Writes the programs under `root`; returns their full paths in order. */
export function writePrograms(root: string, programs: readonly DocProgram[]): string[] {
  return programs.map((program) => {
    const full = join(root, program.path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, program.text);
    return full;
  });
}
