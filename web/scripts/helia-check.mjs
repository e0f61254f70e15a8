// Fetches a git commit's whole DAG from a dForge node's trustless gateway as
// an IPFS client does: @helia/http with only the trustless-gateway block
// broker, routed to that one gateway (no libp2p, no public gateways or
// delegated routing), and a sha1 hasher, so every block is checked against
// its CID before it is used. It walks as the gateway's CAR does: a commit,
// its tree, the tree's entries in git's order, then the parents, each block
// once, and prints the CIDs in that order, one per line.
//
//   node scripts/helia-check.mjs <gateway URL> <commit CID>
//
// internal/blocks/helia_test.go runs it against a real repository.

// it-queue, under @helia/utils, calls Promise.withResolvers (Node 22); this
// machine runs Node 20. Defined before the Helia modules load.
Promise.withResolvers ??= function withResolvers() {
  let resolve, reject
  const promise = new this((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
const { trustlessGateway } = await import('@helia/block-brokers')
const { createHeliaHTTP } = await import('@helia/http')
const { httpGatewayRouting } = await import('@helia/routers')
const { CID } = await import('multiformats/cid')
const Digest = await import('multiformats/hashes/digest')
const { sha1 } = await import('multiformats/hashes/sha1')

const GIT_RAW = 0x78
const SHA1 = 0x11

const [gateway, root] = process.argv.slice(2)
if (!gateway || !root) {
  console.error('usage: node scripts/helia-check.mjs <gateway URL> <commit CID>')
  process.exit(2)
}

const helia = await createHeliaHTTP({
  blockBrokers: [trustlessGateway({ allowInsecure: true, allowLocal: true })],
  routers: [httpGatewayRouting({ gateways: [gateway] })],
  hashers: [sha1],
  // No services: the default delegated routing would call out to the Internet.
  libp2p: { services: {} },
})

/** The CID of the git object with this 20-byte id. */
const gitCID = (id) => CID.createV1(GIT_RAW, Digest.create(SHA1, id))
const hexCID = (hex) => gitCID(Uint8Array.from(hex.match(/../g), (b) => parseInt(b, 16)))

/** A loose git object's links, in the order the gateway's CAR walks them. */
function links(block) {
  const nul = block.indexOf(0)
  const [type] = new TextDecoder().decode(block.subarray(0, nul)).split(' ')
  const body = block.subarray(nul + 1)
  if (type === 'commit' || type === 'tag') {
    const head = new TextDecoder().decode(body).split('\n\n')[0].split('\n')
    const ids = (key) => head.filter((l) => l.startsWith(key + ' ')).map((l) => hexCID(l.slice(key.length + 1)))
    return type === 'tag' ? ids('object') : [...ids('tree'), ...ids('parent')]
  }
  if (type !== 'tree') return []
  const out = []
  for (let i = 0; i < body.length; ) {
    const sp = body.indexOf(0x20, i)
    const nulAt = body.indexOf(0, sp)
    const mode = new TextDecoder().decode(body.subarray(i, sp))
    if (mode !== '160000') out.push(gitCID(body.slice(nulAt + 1, nulAt + 21))) // a submodule's commit is elsewhere
    i = nulAt + 21
  }
  return out
}

try {
  const sent = new Set()
  const stack = [CID.parse(root)]
  while (stack.length > 0) {
    const cid = stack.pop()
    if (sent.has(cid.toString())) continue
    const chunks = []
    for await (const chunk of helia.blockstore.get(cid, { signal: AbortSignal.timeout(10_000) })) chunks.push(chunk)
    const block = new Uint8Array(Buffer.concat(chunks))
    sent.add(cid.toString())
    console.log(cid.toString())
    stack.push(...links(block).reverse())
  }
} catch (err) {
  console.error(err)
  process.exitCode = 1
} finally {
  await helia.stop()
}
