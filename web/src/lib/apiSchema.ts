// The shapes the API sends and takes, generated from web/public/openapi.json
// into apiSchema.gen.ts by `make openapi` (never edited by hand), so a
// feature's types follow the Go code instead of being copied from it.
import type { components } from './apiSchema.gen'

export type { components, paths } from './apiSchema.gen'

// Schema<'Issue'> is the document's components.schemas.Issue.
export type Schema<N extends keyof components['schemas']> = components['schemas'][N]

// Optional marks fields the server leaves out (Go's omitempty) as optional:
// the document does not say which fields those are, so every field is
// generated as required (see OPENAPI_TS_FLAGS in the Makefile).
export type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>
