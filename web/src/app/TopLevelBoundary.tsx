import { Component, type ReactNode } from 'react'
import i18n from 'i18next'
import { reportError } from '@/features/monitoring/monitoring'

/** The last line of defence: if the whole app crashes, say so and report it. */
export class TopLevelBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  componentDidCatch(error: Error) {
    reportError(error)
  }

  render() {
    if (this.state.failed) {
      return <p role="alert">{i18n.t('error.topLevel', { defaultValue: 'An error occurred' })}</p>
    }
    return this.props.children
  }
}
