import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { checkUsername, keys } from './api'
import { type UsernameProblem, usernameProblem } from './usernameRules'

/** The value after it has stopped changing for a moment, so typing does not ask the server per key. */
function useSettled(value: string, ms = 300): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

export type Verdict = 'empty' | 'invalid' | 'same' | 'checking' | 'available' | 'taken' | 'unavailable' | 'failed'

export interface UsernameCheck {
  /** The name as it will be claimed (trimmed). */
  name: string
  verdict: Verdict
  /** What is wrong with it, in words; "" when nothing is (yet). */
  text: string
  /** The verdict is a refusal: the field is marked invalid. */
  bad: boolean
}

/**
 * Checks a username as it is typed: the chain's rules at once, then
 * (debounced) whether the node knows it as free. The current name is never
 * sent.
 */
export function useUsernameCheck(input: string, current: string): UsernameCheck {
  const { t } = useTranslation('settings')
  const name = input.trim()
  const settled = useSettled(name)
  const problem: UsernameProblem | null = name ? usernameProblem(name) : null
  const same = name.toLowerCase() === current.toLowerCase()
  const check = useQuery({
    queryKey: keys.username(settled),
    queryFn: () => checkUsername(settled),
    enabled: !!name && !problem && !same && settled === name,
    staleTime: 5_000,
  })

  let verdict: Verdict
  if (!name) verdict = 'empty'
  else if (problem) verdict = 'invalid'
  else if (same) verdict = 'same'
  else if (settled !== name || check.isPending) verdict = 'checking'
  else if (check.isError) verdict = 'failed'
  else if (check.data?.available) verdict = 'available'
  // A name someone holds (the node names its owner) is taken, in the app's own words; any other refusal says the node's reason.
  else verdict = check.data?.owner || !check.data?.reason ? 'taken' : 'unavailable'

  const texts: Record<Verdict, string> = {
    empty: '',
    invalid: problem === 'shape' ? t('account.username.invalid') : problem ? t(`account.username.rules.${problem}`) : '',
    same: t('account.username.same'),
    checking: t('account.username.checking'),
    available: t('account.username.available', { name }),
    taken: t('account.username.taken', { name }),
    unavailable: t('account.username.unavailable', { name, reason: check.data?.reason ?? '' }),
    failed: t('account.username.checkFailed'),
  }
  const bad = verdict === 'invalid' || verdict === 'taken' || verdict === 'unavailable' || verdict === 'failed'
  return { name, verdict, text: texts[verdict], bad }
}
