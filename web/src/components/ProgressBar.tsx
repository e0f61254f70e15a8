/**
 * A determinate progress bar, value of max; with max 0 (not known yet) it
 * is indeterminate. label names it and valueText says the progress in
 * words ("3 of 8 refs"), for assistive technology.
 */
export function ProgressBar({ value, max, label, valueText }: { value: number; max: number; label: string; valueText?: string }) {
  const known = max > 0
  const percent = known ? Math.min(100, Math.max(0, Math.round((value / max) * 100))) : 0
  return (
    <div
      className={`progress${known ? '' : ' progress-indeterminate'}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={known ? max : undefined}
      aria-valuenow={known ? Math.min(value, max) : undefined}
      aria-valuetext={valueText}
    >
      <div className="progress-fill" style={known ? { width: `${percent}%` } : undefined} />
    </div>
  )
}
