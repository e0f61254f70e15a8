// Test fixtures in the API's generated shapes (imported by tests only): every
// field of a schema at the zero value Go's encoding/json sends for it ("", 0,
// false, [], null for a pointer, a nested object's own zero fields), with the
// test's fields over them. A test names only the fields it is about, and the
// fixture still has every field the server sends.
import type { components, Schema } from '@/lib/apiSchema'
import specText from '../../public/openapi.json?raw'

type Name = keyof components['schemas']

interface JSONSchema {
  $ref?: string
  type?: string
  nullable?: boolean
  allOf?: JSONSchema[]
  properties?: Record<string, JSONSchema>
}

const schemas = (JSON.parse(specText) as { components: { schemas: Record<string, JSONSchema> } }).components.schemas

function zero(s: JSONSchema, seen: string[]): unknown {
  if (s.nullable) return null
  if (s.$ref) return zeroOf(s.$ref.replace('#/components/schemas/', ''), seen)
  if (s.allOf?.length === 1) return zero(s.allOf[0], seen)
  switch (s.type) {
    case 'string':
      return ''
    case 'integer':
    case 'number':
      return 0
    case 'boolean':
      return false
    case 'array':
      return []
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, zero(v, seen)]))
  }
  return null
}

function zeroOf(name: string, seen: string[]): unknown {
  const s = schemas[name]
  if (!s) throw new Error(`no schema ${name} in public/openapi.json`)
  // A schema that holds itself (a comment's parent) ends at null the second time.
  if (seen.includes(name)) return null
  return zero(s, [...seen, name])
}

/** A schema's value as the server sends it for an empty record, with over's fields set. */
export function schemaFixture<N extends Name>(name: N, over: Partial<Schema<N>> = {}): Schema<N> {
  return { ...(zeroOf(name, []) as object), ...over } as Schema<N>
}
