import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup)

// findBy* and waitFor give up after this long. Testing Library's 1 s is
// too short on a loaded 2-core CI machine, where a screen's first render
// after its stubbed fetch can take longer; a passing test does not wait it out.
configure({ asyncUtilTimeout: 5000 })
