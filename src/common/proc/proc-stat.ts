/**
 * Field `field` of a `/proc/<pid>/stat` (or `/proc/<pid>/task/<tid>/stat`) line, numbered from 1
 * as proc(5) numbers them; read after "pid (command)", since the command may hold spaces and
 * parentheses. Undefined past the last field.
 */
export function procStatField(stat: string, field: number): string | undefined {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[field - 3];
}
