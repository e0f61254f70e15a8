import { describe, expect, it } from 'vitest'
import { targetError } from './target'

// The same cases as TestParseTarget and TestTipTargetRejected in internal/chain/tx.
describe('targetError', () => {
  it.each(['user:alice', 'repo:alice/x', 'issue:alice/x#3', 'pr:bob-1/my.repo#4', 'pr:a/b#18446744073709551615', `user:${'a'.repeat(100)}`])(
    'accepts %s',
    (s) => {
      expect(targetError(s)).toBeNull()
    },
  )

  it.each([
    ['', { code: 'required' }],
    ['alice', { code: 'shape' }],
    ['user:', { code: 'nameLength', name: '', max: 100 }],
    ['repo:alice', { code: 'repoShape' }],
    ['issue:alice/x', { code: 'numberShape', kind: 'issue' }],
    ['issue:alice/x#0', { code: 'number', number: '0' }],
    ['pr:alice/x#04', { code: 'number', number: '04' }],
    ['pr:alice/x#', { code: 'number', number: '' }],
    ['pr:alice/x#-1', { code: 'number', number: '-1' }],
    ['pr:alice/x#+1', { code: 'number', number: '+1' }],
    ['pr:alice/x#18446744073709551616', { code: 'number', number: '18446744073709551616' }],
    ['issue:alice#3', { code: 'repoShape' }],
    ['team:x', { code: 'kind', kind: 'team' }],
    ['User:alice', { code: 'kind', kind: 'User' }],
    ['user:al ice', { code: 'nameChars', name: 'al ice' }],
    ['user:alice/x', { code: 'nameChars', name: 'alice/x' }],
    ['repo:alice/x/y', { code: 'nameChars', name: 'x/y' }],
    ['repo:/x', { code: 'nameLength', name: '', max: 100 }],
    ['user:ålice', { code: 'nameChars', name: 'ålice' }],
    [`user:${'a'.repeat(101)}`, { code: 'nameLength', name: 'a'.repeat(101), max: 100 }],
    ['a'.repeat(300), { code: 'tooLong', max: 256 }],
    // 256 characters but more bytes: Go measures bytes.
    [`user:${'é'.repeat(126)}`, { code: 'tooLong', max: 256 }],
  ])('refuses %j', (s, want) => {
    expect(targetError(s)).toEqual(want)
  })
})
