import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/App'
import { TopLevelBoundary } from '@/app/TopLevelBoundary'
import { startMonitoring } from '@/features/monitoring/monitoring'
import { initI18n } from '@/i18n/i18n'
import { startTheme } from '@/stores/theme'
import '@/app/styles.css'

startTheme()
initI18n()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <TopLevelBoundary>
      <App />
    </TopLevelBoundary>
  </StrictMode>,
)

startMonitoring()
// Off the critical path: the worker module loads after the first render.
void import('@/features/pwa/serviceWorker').then((m) => m.registerServiceWorker())
