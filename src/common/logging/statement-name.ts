/** At most this much of a statement's text is read for its name. */
const NAME_SCAN_CHARS = 2_000;
/** The longest relation name a statement's name carries (PostgreSQL's own limit is 63 bytes). */
const RELATION_MAX_CHARS = 100;

const COMMAND = /^\s*([A-Za-z]+)/;
/** The first relation a statement names, after the keyword that introduces it. */
const RELATION = /\b(FROM|INTO|UPDATE|TABLE)\s+("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$.]*)/i;

/**
 * How the log names an SQL statement (docs/logging.md, "What is never logged"): its command and
 * the first relation it names, as `INSERT INTO "tasks"`, `UPDATE "tasks"`,
 * `SELECT FROM page_snapshots` or `COMMIT`. It is read from the statement's first words only,
 * which are the service's own text: values travel as parameters, which a name never holds.
 */
export function statementName(sql: string): string {
  const text = sql.slice(0, NAME_SCAN_CHARS);
  const command = COMMAND.exec(text)?.[1].toUpperCase() ?? 'SQL';
  const relation = RELATION.exec(text);
  if (!relation) return command;
  const keyword = relation[1].toUpperCase();
  const name = relation[2].slice(0, RELATION_MAX_CHARS);
  return keyword === command ? `${command} ${name}` : `${command} ${keyword} ${name}`;
}
