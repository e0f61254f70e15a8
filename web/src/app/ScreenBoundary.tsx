import { Component, type ErrorInfo, type ReactNode } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { retryFailedScreens } from './LazyScreen'
import { reloadPage } from './reload'

interface State {
  failed: boolean
  attempt: number
}

/** Catches a rendering error in a screen and shows the fallback page. */
export class ScreenBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { failed: false, attempt: 0 }

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true }
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    // Details go to the console for developers and stay hidden from the user.
    console.error('Screen failed to render', error, info.componentStack)
  }

  private retry = () => {
    retryFailedScreens()
    this.setState((s) => ({ failed: false, attempt: s.attempt + 1 }))
  }

  render() {
    if (this.state.failed) return <ErrorFallback onRetry={this.retry} />
    return <div key={this.state.attempt}>{this.props.children}</div>
  }
}

function ErrorFallback({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation()
  return (
    <Card size="lg" className="error-fallback" role="alert">
      <h1>{t('error.title')}</h1>
      <p>{t('error.description')}</p>
      <div className="button-row">
        <Button onClick={onRetry}>{t('error.tryAgain')}</Button>
        <Button variant="outline" onClick={reloadPage}>
          {t('error.reload')}
        </Button>
      </div>
      <p className="muted">
        <Trans i18nKey="error.persist" components={{ contact: <a href="/help/contact" /> }} />
      </p>
    </Card>
  )
}
