// Small inline icons for the code browser, drawn in the text colour (no
// emoji: without an emoji font they show as empty boxes).
import type { ReactNode } from 'react'

export type FileKind = 'dir' | 'file' | 'symlink' | 'submodule'

const IMAGE = /\.(png|jpe?g|gif|webp|svg|ico|bmp|avif)$/i
const CODE = /\.(go|rs|c|h|cc|cpp|hpp|java|kt|py|rb|php|js|jsx|mjs|cjs|ts|tsx|sh|bash|css|scss|html?|json|ya?ml|toml|sql|proto|mod|sum)$/i
const TEXT = /(\.(md|markdown|txt|rst|adoc)|^(readme|license|licence|copying|changelog|authors|notice)(\.[^/]*)?)$/i

function Svg({ className, children }: { className: string; children: ReactNode }) {
  return (
    <svg className={`file-icon ${className}`} viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" strokeLinecap="round">
      {children}
    </svg>
  )
}

const SHEET = <path d="M3.5 1.5h6l3 3v10h-9z M9.5 1.5v3h3" />

/** The icon of an entry: a folder, a submodule, a symbolic link, or a file by its kind (image, text, code, other). */
export function FileIcon({ type, name }: { type: FileKind; name: string }) {
  switch (type) {
    case 'dir':
      return (
        <Svg className="file-icon-dir">
          <path d="M1.5 3.5a1 1 0 0 1 1-1h3.5l1.5 1.5h6a1 1 0 0 1 1 1v7.5a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1z" fill="currentColor" fillOpacity="0.25" />
        </Svg>
      )
    case 'submodule':
      return (
        <Svg className="file-icon-submodule">
          <path d="M1.5 3.5a1 1 0 0 1 1-1h3.5l1.5 1.5h6a1 1 0 0 1 1 1v7.5a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1z" />
          <path d="M6 9.5h4.5M9 8l1.5 1.5L9 11" />
        </Svg>
      )
    case 'symlink':
      return (
        <Svg className="file-icon-symlink">
          {SHEET}
          <path d="M6 12V10a2 2 0 0 1 2-2h2.5M9 6.5L10.5 8 9 9.5" />
        </Svg>
      )
    default:
      if (IMAGE.test(name)) {
        return (
          <Svg className="file-icon-image">
            <rect x="1.5" y="2.5" width="13" height="11" rx="1" />
            <circle cx="5.5" cy="6" r="1.2" />
            <path d="M1.5 12l4-3.5 3 2.5 2.5-2 3.5 3" />
          </Svg>
        )
      }
      if (TEXT.test(name)) {
        return (
          <Svg className="file-icon-text">
            {SHEET}
            <path d="M5.5 7.5h5M5.5 9.5h5M5.5 11.5h3" />
          </Svg>
        )
      }
      if (CODE.test(name)) {
        return (
          <Svg className="file-icon-code">
            {SHEET}
            <path d="M6.5 8L5 9.5 6.5 11M9.5 8L11 9.5 9.5 11" />
          </Svg>
        )
      }
      return <Svg className="file-icon-file">{SHEET}</Svg>
  }
}
