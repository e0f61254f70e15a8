// The forum feature's public entry point: its screens are loaded by the
// route table (app/screens.ts); other features use nothing of it yet.
export { CATEGORIES as FORUM_CATEGORIES } from './api'
