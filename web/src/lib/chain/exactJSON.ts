/**
 * JSON.parse, except that integer literals too long for a double to hold
 * exactly (more than 15 digits) come back as decimal strings. Amounts are
 * uint64 micro-units and the API writes them as JSON numbers; without this,
 * a supply above 2^53 would be silently rounded.
 */
export function parseExactJSON(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text)
  let out = ''
  let i = 0
  const number = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y
  while (i < text.length) {
    const c = text[i]
    if (c === '"') {
      const end = stringEnd(text, i)
      out += text.slice(i, end)
      i = end
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      number.lastIndex = i
      const tok = number.exec(text)?.[0] ?? c
      out += /^-?\d{16,}$/.test(tok) ? `"${tok}"` : tok
      i += tok.length
    } else {
      out += c
      i++
    }
  }
  return JSON.parse(out)
}

/** The index just past the JSON string that starts at text[start]. */
function stringEnd(text: string, start: number): number {
  let i = start + 1
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
  return i + 1
}
