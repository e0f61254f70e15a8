// The docs feature's public entry point: the docs index, which the help centre lists.
export { useDocs } from './api'
