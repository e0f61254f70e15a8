// Task lists ("- [ ] todo", "- [x] done") in Markdown source. The server
// renders each task marker as a checkbox, in source order; ticking the n-th
// checkbox rewrites the n-th marker here. Markers inside fenced code blocks
// and HTML comments are text, not tasks, so they are skipped as the server's
// renderer (goldmark) skips them.

/** Blockquote markers and indentation before a line's content. */
const PREFIX = /^[ \t]*(?:>[ \t]?)*[ \t]*/
/** One or more list item markers, then the task box; the box's state is group 2. */
const TASK = /^((?:(?:[-*+]|\d{1,9}[.)])[ \t]+)+)\[([ \txX])\]/
/** An opening code fence: three or more backticks or tildes. */
const FENCE = /^(`{3,}|~{3,})/

/**
 * Returns source with its index-th task (counting from 0) checked or
 * unchecked, or null when source has no such task.
 */
export function setTask(source: string, index: number, checked: boolean): string | null {
  const lines = source.split('\n')
  let fence = '' // the open fence, while inside a fenced code block
  let comment = false // inside an HTML comment block
  let n = 0
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const prefix = PREFIX.exec(line)?.[0] ?? ''
    const rest = line.slice(prefix.length)
    if (fence) {
      // A closing fence: the same character, at least as long, nothing after.
      const close = FENCE.exec(rest)?.[1]
      if (close && close[0] === fence[0] && close.length >= fence.length && rest.slice(close.length).trim() === '') fence = ''
      continue
    }
    if (comment) {
      if (line.includes('-->')) comment = false
      continue
    }
    const open = FENCE.exec(rest)?.[1]
    if (open && !(open[0] === '`' && rest.slice(open.length).includes('`'))) {
      fence = open
      continue
    }
    if (rest.startsWith('<!--')) {
      comment = !rest.includes('-->', 4)
      continue
    }
    const task = TASK.exec(rest)
    if (!task) continue
    if (n++ !== index) continue
    const at = prefix.length + task[1].length + 1
    lines[i] = line.slice(0, at) + (checked ? 'x' : ' ') + line.slice(at + 1)
    return lines.join('\n')
  }
  return null
}
