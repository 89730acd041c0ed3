/**
 * The commands an output asks its reader to run (src/cli/command-help.ts, `commandToRun`): each
 * line indented by two spaces right after a line ending in a colon, with no indented line after it.
 */
export function commandsIn(output: string): string[] {
  const lines = output.split('\n');
  return lines.flatMap((line, i) => (i > 0 && lines[i - 1].endsWith(':') && /^ {2}\S/.test(line) && !/^ /.test(lines[i + 1] ?? '') ? [line.slice(2)] : []));
}
