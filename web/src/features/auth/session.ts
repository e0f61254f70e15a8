import { useEffect } from 'react'
import { ApiError } from '@/lib/http'
import { useAuthStore } from '@/stores/auth'
import { useDelegationStore } from '@/stores/delegation'
import { getSession, postLogout, type Session, toStoreUser } from '@/lib/authApi'
import { forgetWallet } from '@/lib/wallet'

// Bumped by every sign-in and sign-out here, so a session check that was
// already under way when one happened knows its answer is stale.
let epoch = 0

/** Fills the auth store from a session the server has just confirmed. */
export function applySession(session: Session) {
  epoch++
  useAuthStore.getState().startSession(toStoreUser(session.user), session.csrfToken)
}

/**
 * Asks the server whether the session cookie is still good and brings the
 * persisted store in line: a live session refreshes the user and CSRF token
 * (another tab may have renamed the user), a 401 signs out. Any other failure
 * (offline, an older server) leaves the store alone rather than signing
 * someone out on a hiccup. An answer that arrives after the user signed out
 * or in again meanwhile is stale and ignored.
 */
export async function reconcileSession(): Promise<void> {
  const asked = epoch
  const stillCurrent = () => epoch === asked
  try {
    const session = await getSession()
    if (stillCurrent()) applySession(session)
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && stillCurrent()) signOutHere()
  }
}

let reconciled = false

/**
 * Runs reconcileSession once per page load (navigation is a full load, so
 * that is once per page) when the stored state says signed in. Signed-out
 * visitors make no call: there is nothing to reconcile, and a 401 on every
 * anonymous page would only be console noise.
 */
export function useSessionSync() {
  useEffect(() => {
    if (reconciled || !useAuthStore.getState().isAuthenticated) return
    reconciled = true
    void reconcileSession()
  }, [])
}

/**
 * Ends the session on the server, then signs out here whatever the server
 * said: a user who asks to log out must not stay signed in on this screen.
 */
export async function logout(): Promise<void> {
  epoch++
  try {
    await postLogout()
  } catch {
    // Already gone, or offline: the local sign-out below is what the user sees.
  } finally {
    signOutHere()
    forgetWallet()
  }
}

/** The local sign-out: the user and what was known of their node's authorization. */
function signOutHere() {
  useAuthStore.getState().logout()
  useDelegationStore.getState().clear()
}

/** Lets the next mounted header check the session again (tests start each case as a fresh page load). */
export function resetSessionSync() {
  reconciled = false
}
