// The shapes the API sends and takes, generated from web/public/openapi.json
// into apiSchema.gen.ts by `make openapi` (never edited by hand), so a
// feature's types follow the Go code instead of being copied from it.
import type { components, operations } from './apiSchema.gen'

export type { components, paths } from './apiSchema.gen'

// Schema<'Issue'> is the document's components.schemas.Issue.
export type Schema<N extends keyof components['schemas']> = components['schemas'][N]

// Optional marks fields the server leaves out (Go's omitempty) as optional:
// the document does not say which fields those are, so every field is
// generated as required (see OPENAPI_TS_FLAGS in the Makefile).
export type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>

// RequestBody<'editIssue'> is the JSON an operation takes, for the routes
// whose body the document describes in place instead of naming a schema.
export type RequestBody<O extends keyof operations> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never

// ResponseBody<'getTwoFactor'> is the JSON an operation answers 200 with, for
// the routes whose answer the document describes in place.
export type ResponseBody<O extends keyof operations> = operations[O] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never

// Sent<T, K> is the fields K of a request body as the client sends them: a
// body's null (Go's nil pointer) means "leave it as it is", which a field the
// client fills in never is.
export type Sent<T, K extends keyof T = keyof T> = { [P in K]: NonNullable<T[P]> }
