export function Logo({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <defs>
        <linearGradient id="logo-g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#f59e0b" />
          <stop offset="1" stopColor="#ea580c" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="14" fill="var(--logo-bg)" />
      <path d="M32 8 52 20v24L32 56 12 44V20z" fill="none" stroke="url(#logo-g)" strokeWidth="5" strokeLinejoin="round" />
      <path d="M26 22h7a10 10 0 0 1 0 20h-7z" fill="url(#logo-g)" />
    </svg>
  )
}
