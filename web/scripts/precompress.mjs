// Writes .gz and .br siblings of every compressible file in the build, so the
// Go server serves precompressed bytes without compressing per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const dir = process.argv[2] ?? 'dist'
const compressible = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/
const minSize = 512

function* files(root) {
  for (const name of readdirSync(root)) {
    const path = join(root, name)
    if (statSync(path).isDirectory()) yield* files(path)
    else yield path
  }
}

let count = 0
for (const path of files(dir)) {
  if (!compressible.test(path)) continue
  const body = readFileSync(path)
  if (body.length < minSize) continue
  writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }))
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  )
  count++
}
console.log(`precompressed ${count} files in ${dir}`)
