/**
 * A LIKE pattern that finds every row that may hold `needle` when compared
 * with lower(column): ASCII letters lower case, any other character a single
 * wildcard (databases fold only ASCII reliably), LIKE's own marks escaped with
 * "\" (use ESCAPE '\'). The caller then checks each candidate exactly.
 */
export function likeCandidate(needle: string): string {
  let out = "";
  for (const char of needle.normalize("NFC").toLowerCase()) {
    if (char === "%" || char === "_" || char === "\\") out += `\\${char}`;
    else out += char.charCodeAt(0) < 128 ? char : "_";
  }
  return `%${out}%`;
}
