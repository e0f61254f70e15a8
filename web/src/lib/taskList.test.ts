import { describe, expect, it } from 'vitest'
import { setTask } from './taskList'

describe('setTask', () => {
  it('ticks and unticks the n-th task of a list', () => {
    const src = '# Plan\n\n- [ ] one\n- [x] two\n* [X] three\n1. [ ] four\n'
    expect(setTask(src, 0, true)).toBe('# Plan\n\n- [x] one\n- [x] two\n* [X] three\n1. [ ] four\n')
    expect(setTask(src, 1, false)).toBe('# Plan\n\n- [ ] one\n- [ ] two\n* [X] three\n1. [ ] four\n')
    expect(setTask(src, 2, false)).toBe('# Plan\n\n- [ ] one\n- [x] two\n* [ ] three\n1. [ ] four\n')
    expect(setTask(src, 3, true)).toBe('# Plan\n\n- [ ] one\n- [x] two\n* [X] three\n1. [x] four\n')
  })

  it('counts nested tasks and tasks in quotes, in source order, and keeps CRLF', () => {
    const src = '- [ ] a\r\n  - [ ] b\r\n> - [ ] c\r\n'
    expect(setTask(src, 1, true)).toBe('- [ ] a\r\n  - [x] b\r\n> - [ ] c\r\n')
    expect(setTask(src, 2, true)).toBe('- [ ] a\r\n  - [ ] b\r\n> - [x] c\r\n')
  })

  it('skips markers inside fenced code and HTML comments', () => {
    const src = ['- [ ] first', '```md', '- [ ] in code', '```', '~~~~', '- [ ] in tildes', '~~~', '- [ ] still code', '~~~~', '<!--', '- [ ] hidden', '-->', '  ```', '  - [ ] indented fence', '  ```', '- [ ] second'].join('\n')
    const out = setTask(src, 1, true)
    expect(out?.split('\n').filter((l) => l.includes('[x]'))).toEqual(['- [x] second'])
    expect(setTask(src, 2, true)).toBeNull()
  })

  it('finds as many tasks as the server renders checkboxes', () => {
    // internal/markdown renders 7 checkboxes for this document.
    const src = ['- [ ] first', '```md', '- [ ] in code', '```', '~~~~', '- [ ] in tildes', '~~~', '- [ ] still code', '~~~~', '<!--', '- [ ] hidden', '-->', '  ```', '  - [ ] indented fence', '  ```', '- [ ] second', '', '- [ ] a\r\n  - [ ] b\r\n> - [ ] c\r\n- [x]nospace\n- [ ]\n'].join('\n')
    let count = 0
    while (setTask(src, count, true) !== null) count++
    expect(count).toBe(7)
  })

  it('does not take plain brackets or links for tasks', () => {
    expect(setTask('[ ] not a list\n- [link](x)\n-[ ] no space\n', 0, true)).toBeNull()
  })

  it('answers null for a task that is not there', () => {
    expect(setTask('- [ ] only', 1, true)).toBeNull()
    expect(setTask('', 0, true)).toBeNull()
  })
})
