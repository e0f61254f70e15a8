import { lazy, Suspense, useState } from 'react'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { isDefaultUsername } from './usernameRules'

const ChooseUsernameCard = lazy(() => import('./ChooseUsernameCard'))

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
 * ask again). The card and the claim's code load only then.
 */
export function UsernamePrompt() {
  const user = useSignedInUser()
  // A skip this session, should storage refuse to keep it.
  const [skippedNow, setSkippedNow] = useState<string | null>(null)
  const address = user?.walletAddress
  if (!user || !address || !isDefaultUsername(user.username) || skippedNow === address || skipped(address)) return null
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
