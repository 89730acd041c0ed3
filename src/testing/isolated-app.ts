import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App, LocalBackend, TerraformBackend, TerraformStack } from '../constructs/cdk';

export interface IsolatedAppProps {
  /**
   * The folder to synthesize into, e.g. pytest's `tmp_path`: the test's to remove.
   * @default - a new folder of the system's temporary directory, removed by `remove()` or when the process ends
   */
  readonly outdir?: string;
  /**
   * Context values, as `App` takes them.
   * @default - none
   */
  readonly context?: { [key: string]: any };
}

/**
 * An `App` for a test that runs terraform: every stack synthesizes into a folder of its own and
 * keeps its state there (`stacks/<name>/terraform.tfstate`), in place of any backend the stack
 * declares. cdktf's default local backend keeps the state in the folder the tests run from, the
 * project's own `terraform.<name>.tfstate`, and a declared backend is the team's real state: a test
 * must touch neither, and must start from an empty state whatever order or worker runs it.
 */
export class IsolatedApp extends App {
  /** The folders this process made, removed when it ends if `remove()` was not called. */
  static readonly #folders = new Set<string>();

  readonly #made: boolean;

  constructor(props: IsolatedAppProps = {}) {
    const outdir = props.outdir === undefined ? IsolatedApp.#newFolder() : resolve(props.outdir);
    super({ outdir, context: props.context });
    this.#made = props.outdir === undefined;
  }

  /** The folder of the stack named `stackName`, where terraform runs and its state is kept. */
  public stackDir(stackName: string): string {
    return join(this.outdir, 'stacks', stackName);
  }

  /** Synthesizes every stack, each with its state in its own folder. */
  public synth(): void {
    for (const stack of this.node.findAll().filter((c): c is TerraformStack => TerraformStack.isStack(c))) {
      for (const backend of stack.node.children.filter((c) => TerraformBackend.isBackend(c))) stack.node.tryRemoveChild(backend.node.id);
      new LocalBackend(stack, { path: join(this.stackDir(stack.node.id), 'terraform.tfstate') });
    }
    super.synth();
  }

  /** Removes the folder with everything in it, state included; a folder given as `outdir` is the caller's, and stays. */
  public remove(): void {
    if (!this.#made) return;
    rmSync(this.outdir, { recursive: true, force: true });
    IsolatedApp.#folders.delete(this.outdir);
  }

  static #newFolder(): string {
    const dir = mkdtempSync(join(tmpdir(), 'hosting-isolated-app-'));
    if (IsolatedApp.#folders.size === 0) process.once('exit', () => IsolatedApp.#folders.forEach((made) => rmSync(made, { recursive: true, force: true })));
    IsolatedApp.#folders.add(dir);
    return dir;
  }
}
