import { lazy, Suspense, useState } from 'react'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { isDefaultUsername } from './usernameRules'

const ChooseUsernameCard = lazy(() => import('./ChooseUsernameCard'))
const UsernameClaimedCard = lazy(() => import('./ChooseUsernameCard').then((m) => ({ default: m.UsernameClaimedCard })))

/** Where a Skip is remembered: one key per wallet address, so another account on this browser is still asked. */
export const usernamePromptSkipKey = (address: string) => `username-prompt-skipped:${address.toLowerCase()}`

function skipped(address: string): boolean {
  try {
    return localStorage.getItem(usernamePromptSkipKey(address)) !== null
  } catch {
    return false
  }
}

/**
 * After sign-in, asks an account that still has its default name to choose
 * one, until it does or skips (remembered in localStorage, so it does not
 * ask again). The card and the claim's code load only then. A claim made
 * here is confirmed in its place until the user closes it: the new name
 * reaches the account as the claim's block lands, which would otherwise
 * take the card away before its confirmation could be read.
 */
export function UsernamePrompt() {
  const user = useSignedInUser()
  // A skip this session, should storage refuse to keep it.
  const [skippedNow, setSkippedNow] = useState<string | null>(null)
  // The address the card was shown to, and whether its confirmation was closed.
  const [askedFor, setAskedFor] = useState<string | null>(null)
  const [closed, setClosed] = useState(false)
  const address = user?.walletAddress
  if (!user || !address) return null
  if (!isDefaultUsername(user.username)) {
    if (askedFor !== address || closed) return null
    return (
      <Suspense fallback={null}>
        <UsernameClaimedCard username={user.username} onClose={() => setClosed(true)} />
      </Suspense>
    )
  }
  if (skippedNow === address || skipped(address)) return null
  if (askedFor !== address) setAskedFor(address)
  const skip = () => {
    try {
      localStorage.setItem(usernamePromptSkipKey(address), String(Date.now()))
    } catch {
      // Storage refused (private mode): it asks again next visit.
    }
    setSkippedNow(address)
  }
  return (
    <Suspense fallback={null}>
      <ChooseUsernameCard user={user} onSkip={skip} />
    </Suspense>
  )
}
