import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Spinner } from '@/components/Spinner'

interface Drawn {
  size: number
  path: string
}

/** The dark modules of text's QR code as one SVG path (a 1x1 square each). */
async function drawQr(text: string): Promise<Drawn> {
  // lean-qr loads only when a QR code is shown.
  const { generate } = await import('lean-qr')
  const code = generate(text)
  let path = ''
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) if (code.get(x, y)) path += `M${x} ${y}h1v1h-1z`
  }
  return { size: code.size, path }
}

/** A QR code as an SVG image, dark on a light quiet zone so phone cameras read it in either theme. */
export function QrCode({ text, label, px = 200 }: { text: string; label: string; px?: number }) {
  const { t } = useTranslation()
  const [drawn, setDrawn] = useState<Drawn | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    setDrawn(null)
    drawQr(text).then(
      (d) => live && setDrawn(d),
      () => live && setFailed(true),
    )
    return () => {
      live = false
    }
  }, [text])
  if (failed) return <p className="alert-error">{t('state.loadFailed')}</p>
  if (!drawn) {
    return (
      <div className="inline-loading" role="status">
        <Spinner size="sm" /> <span>{t('state.loading')}</span>
      </div>
    )
  }
  const quiet = 4
  const side = drawn.size + quiet * 2
  return (
    <svg className="qr-code" role="img" aria-label={label} width={px} height={px} viewBox={`${-quiet} ${-quiet} ${side} ${side}`} shapeRendering="crispEdges">
      <rect x={-quiet} y={-quiet} width={side} height={side} fill="#fff" />
      <path d={drawn.path} fill="#000" />
    </svg>
  )
}
