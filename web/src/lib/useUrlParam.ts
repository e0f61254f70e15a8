import { useCallback, useState } from 'react'

/**
 * One query-string parameter as state. Navigation is a full page load, so the
 * value lives in the URL (reload and shared links keep it) and is written with
 * history.replaceState, so typing adds no history entries. An empty value or
 * the fallback drops the parameter to keep URLs short.
 */
export function useUrlParam(name: string, fallback = ''): [string, (value: string) => void] {
  const [value, setValue] = useState(() => new URLSearchParams(window.location.search).get(name) ?? fallback)
  const update = useCallback(
    (next: string) => {
      setValue(next)
      const url = new URL(window.location.href)
      if (next === '' || next === fallback) url.searchParams.delete(name)
      else url.searchParams.set(name, next)
      window.history.replaceState(window.history.state, '', url)
    },
    [name, fallback],
  )
  return [value, update]
}
