import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** Saves the index-th task of the source (counting from 0) as checked or not; rejects when it could not. */
export type TaskToggle = (index: number, checked: boolean) => Promise<unknown>

/**
 * Shows HTML that the server rendered from Markdown and sanitized with
 * bluemonday; the client never renders untrusted Markdown itself.
 *
 * A code block scrolls sideways when its lines are long, so each one is a
 * named region in the tab order: keyboard users can reach and scroll it.
 *
 * Task list checkboxes come disabled; with onTaskToggle (for people who may
 * edit the text) they can be ticked. A tick shows at once, is undone when
 * onTaskToggle rejects, and no other tick is taken while one is saving.
 */
export function Markdown({ html, onTaskToggle }: { html: string; onTaskToggle?: TaskToggle }) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDivElement>(null)
  const label = t('markdown.codeBlock')
  const [saving, setSaving] = useState(false)
  const toggle = useRef(onTaskToggle)
  useEffect(() => {
    toggle.current = onTaskToggle
  })
  const editable = Boolean(onTaskToggle)

  useLayoutEffect(() => {
    for (const pre of ref.current?.querySelectorAll('pre') ?? []) {
      pre.tabIndex = 0
      pre.setAttribute('role', 'region')
      pre.setAttribute('aria-label', label)
    }
  }, [html, label])

  useLayoutEffect(() => {
    for (const box of taskBoxes(ref.current)) {
      box.disabled = !editable || saving
      box.setAttribute('aria-label', taskText(box))
    }
  }, [html, editable, saving])

  useEffect(() => {
    const root = ref.current
    if (!root || !editable) return
    const onChange = (e: Event) => {
      const box = e.target
      if (!(box instanceof HTMLInputElement) || box.type !== 'checkbox') return
      const index = taskBoxes(root).indexOf(box)
      const checked = box.checked
      const save = toggle.current
      if (index < 0 || !save) return
      setSaving(true)
      save(index, checked)
        .catch(() => {
          box.checked = !checked
        })
        .finally(() => setSaving(false))
    }
    root.addEventListener('change', onChange)
    return () => root.removeEventListener('change', onChange)
  }, [editable])

  return <div ref={ref} className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
}

function taskBoxes(root: HTMLElement | null): HTMLInputElement[] {
  return [...(root?.querySelectorAll<HTMLInputElement>('li input[type=checkbox]') ?? [])]
}

/** A task's own text, without its nested lists, as its checkbox's name. */
function taskText(box: HTMLInputElement): string {
  const item = box.parentElement?.cloneNode(true) as HTMLElement | undefined
  if (!item) return ''
  for (const nested of item.querySelectorAll('ul, ol')) nested.remove()
  return (item.textContent ?? '').trim()
}
