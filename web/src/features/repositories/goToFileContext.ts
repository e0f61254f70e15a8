import { createContext } from 'react'

/** Opens the "Go to file" dialog of the repository page around it; null outside one. */
export const GoToFileContext = createContext<(() => void) | null>(null)
